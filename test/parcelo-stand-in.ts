import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Parcelo carrier's REST API (the example parcelo-shipping plugin's
 * protocol; tests never reach the internet). JSON in and out, `Authorization: Bearer <key>`:
 *   GET  /v1/services                  → { services: [{ code, name, return? }] }
 *   POST /v1/rates                     → { rate: { amount, currency, service } }: 490 for the first
 *                                        parcel unit, 150 for each further one, 900 more abroad (not DE)
 *   POST /v1/shipments                 → { id, status, tracking_number, tracking_url, label: { url } };
 *                                        a repeated Idempotency-Key replays the first answer
 *   GET  /v1/shipments?reference=<r>   → { shipments: [...] } (those made for the shop's reference)
 *   POST /v1/shipments/{id}/cancel     → { id, status: 'canceled' } (409 once picked up)
 *   POST /v1/returns                   → as a shipment
 */
export interface ParceloShipment {
  id: string;
  service: string;
  reference: string;
  status: 'label_created' | 'canceled';
  tracking_number: string;
  tracking_url: string;
  label: { url: string };
  to: Record<string, unknown>;
  parcels: Record<string, unknown>[];
}

export interface ParceloStandIn {
  url: string;
  apiKey: string;
  shipments: Map<string, ParceloShipment>;
  requests: { method: string; path: string; body: Record<string, unknown> }[];
  /**
   * Holds the next request to `path` (a slow carrier, without sleeping): `arrived` resolves when
   * it came in, and the stand-in answers it only after `release()`.
   */
  hold(path: string): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

interface Hold {
  path: string;
  arrive(): void;
  released: Promise<void>;
}

export async function startParceloStandIn(apiKey = 'pk_parcelo_test'): Promise<ParceloStandIn> {
  const shipments = new Map<string, ParceloShipment>();
  const byKey = new Map<string, string>();
  const requests: ParceloStandIn['requests'] = [];
  const holds: Hold[] = [];
  let next = 1000;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', async () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const path = (req.url ?? '/').split('?')[0];
      requests.push({ method: req.method ?? 'GET', path, body });
      const held = holds.findIndex((h) => h.path === path);
      if (held >= 0) {
        const [h] = holds.splice(held, 1);
        h.arrive();
        await h.released;
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`)
        return send(401, { error: { type: 'unauthorized', message: 'Invalid API key' } });
      if (req.method === 'GET' && path === '/v1/services')
        return send(200, {
          services: [
            { code: 'parcel', name: 'Parcel 48h' },
            { code: 'parcel-return', name: 'Return parcel', return: true },
          ],
        });
      if (req.method === 'POST' && path === '/v1/rates') {
        const units = ((body.parcels as { quantity?: number }[]) ?? []).reduce((n, p) => n + (p.quantity ?? 1), 0);
        const abroad = (body.to as { country?: string })?.country !== 'DE';
        if (!units) return send(422, { error: { type: 'invalid', message: 'No parcels to rate' } });
        return send(200, {
          rate: { amount: 490 + 150 * (units - 1) + (abroad ? 900 : 0), currency: 'EUR', service: body.service },
        });
      }
      if (req.method === 'POST' && (path === '/v1/shipments' || path === '/v1/returns')) {
        const key = req.headers['idempotency-key'];
        const replay = typeof key === 'string' ? byKey.get(key) : undefined;
        if (replay) return send(200, shipments.get(replay));
        const n = next++;
        const shipment: ParceloShipment = {
          id: `shp_${n}`,
          service: String(body.service ?? 'parcel-return'),
          reference: String(body.reference ?? ''),
          status: 'label_created',
          tracking_number: `PX${n}DE`,
          tracking_url: `https://track.parcelo.example/PX${n}DE`,
          label: { url: `https://labels.parcelo.example/shp_${n}.pdf` },
          to: (body.to ?? body.from ?? {}) as Record<string, unknown>,
          parcels: (body.parcels ?? []) as Record<string, unknown>[],
        };
        shipments.set(shipment.id, shipment);
        if (typeof key === 'string') byKey.set(key, shipment.id);
        return send(200, shipment);
      }
      if (req.method === 'GET' && path === '/v1/shipments') {
        const reference = new URL(req.url ?? '/', 'http://stand-in').searchParams.get('reference');
        return send(200, { shipments: [...shipments.values()].filter((s) => s.reference === reference) });
      }
      const cancel = /^\/v1\/shipments\/([^/]+)\/cancel$/.exec(path);
      if (req.method === 'POST' && cancel) {
        const s = shipments.get(decodeURIComponent(cancel[1]));
        if (!s) return send(404, { error: { type: 'not_found', message: 'No such shipment' } });
        s.status = 'canceled';
        return send(200, { id: s.id, status: s.status });
      }
      send(404, { error: { type: 'not_found', message: `No route ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    shipments,
    requests,
    hold(path) {
      let arrive = () => {};
      let release = () => {};
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ path, arrive, released });
      return { arrived, release };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
