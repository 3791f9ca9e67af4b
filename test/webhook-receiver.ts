import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes as received, for signature checks. */
  body: Buffer;
  /** The sender's port: which process sent it (test/processes.ts pidOfLocalPort). */
  remotePort?: number;
}

/** `status`: answer with it (after `delayMs`); `hang`: never answer (the sender's timeout must end it). */
export type ReceiverMode = { status: number; body?: string; delayMs?: number } | 'hang';

/**
 * A real HTTP server on 127.0.0.1 (port 0) for webhook tests: records every request and
 * answers as `mode` says. `closed` counts hung requests the client gave up on.
 */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  mode: ReceiverMode;
  /** Called for each request as it arrives, and when a hung request is dropped by the client. */
  onEvent?: (what: 'request' | 'dropped', req: ReceivedRequest) => void;
  /** Resolves once `count` requests in total have arrived. */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(mode: ReceiverMode = { status: 200, body: 'ok' }): Promise<Receiver> {
  const hung = new Set<ServerResponse>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: '',
    requests: [],
    mode,
    waitFor: (count) =>
      receiver.requests.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        remotePort: req.socket.remotePort,
      };
      receiver.requests.push(got);
      receiver.onEvent?.('request', got);
      for (const w of waiters.filter((x) => receiver.requests.length >= x.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const current = receiver.mode;
      if (current === 'hang') {
        hung.add(res);
        res.on('close', () => {
          hung.delete(res);
          receiver.onEvent?.('dropped', got);
        });
        return;
      }
      const answer = () => res.writeHead(current.status, { 'content-type': 'text/plain' }).end(current.body ?? '');
      if (current.delayMs) setTimeout(answer, current.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
