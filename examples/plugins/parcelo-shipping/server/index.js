// Server entry of the Parcelo fulfilment provider. Parcelo speaks JSON over HTTPS with a bearer
// key: GET /v1/services, POST /v1/rates, POST /v1/shipments (Idempotency-Key honoured),
// GET /v1/shipments?reference=, POST /v1/shipments/{id}/cancel, POST /v1/returns. Amounts are minor units, as in the shop.

/** One call to Parcelo; a non-2xx answer throws its `error.message` (the shop shows it as a 502). */
async function parcelo(config, method, path, body, idempotencyKey) {
  const base = String(config.api_base || 'https://api.parcelo.example').replace(/\/$/, '');
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${String(config.api_key ?? '')}`,
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`Parcelo ${res.status}: ${answer?.error?.message ?? res.statusText}`);
  return answer;
}

/** The shop's address as Parcelo's `to`. */
const destination = (a) => ({
  country: String(a?.country_code ?? '').toUpperCase(),
  postcode: a?.postal_code ?? null,
  city: a?.city ?? null,
  street: a?.address_1 ?? null,
});

const serviceOf = (optionData) => String(optionData?.id ?? 'parcel');

/** A shipment as the shop keeps it: the data for a later cancel, the label for the order. */
const made = (shipment) => ({
  data: { shipment_id: shipment.id, service: shipment.service },
  labels: [
    { tracking_number: shipment.tracking_number, tracking_url: shipment.tracking_url, label_url: shipment.label.url },
  ],
});

/** @type {import('@emporium/plugin-sdk').Plugin} */
export default {
  register(ctx) {
    ctx.fulfillments.register({
      id: 'parcelo',
      name: 'Parcelo',
      async getFulfillmentOptions() {
        const { services } = await parcelo(ctx.config, 'GET', '/v1/services');
        return { options: services.map((s) => ({ id: s.code, name: s.name, is_return: !!s.return })) };
      },
      async validateFulfillmentData({ data }) {
        // A pickup point is optional; when given it must look like one of Parcelo's ids.
        if (data.pickup_point !== undefined && !/^PP-\d{4,}$/.test(String(data.pickup_point)))
          throw new Error(`Unknown Parcelo pickup point ${data.pickup_point}`);
        return { data };
      },
      async calculatePrice({ option_data, context }) {
        const parcels = context.items.map((i) => ({ quantity: i.quantity ?? 1 }));
        const { rate } = await parcelo(ctx.config, 'POST', '/v1/rates', {
          service: serviceOf(option_data),
          to: destination(context.shipping_address),
          parcels,
          currency: context.currency_code,
        });
        return { calculated_amount: rate.amount, is_calculated_price_tax_inclusive: false };
      },
      async createFulfillment({ fulfillment_id, option_data, items, shipping_address, order }) {
        const shipment = await parcelo(
          ctx.config,
          'POST',
          '/v1/shipments',
          {
            reference: fulfillment_id,
            order_reference: order.display_id ?? order.id,
            service: serviceOf(option_data),
            to: destination(shipping_address),
            parcels: items.map((i) => ({ description: i.title, quantity: i.quantity })),
          },
          fulfillment_id,
        );
        return made(shipment);
      },
      async cancelFulfillment({ fulfillment_id, data }) {
        // A label whose answer never reached the shop has no shipment id: it is found by its reference.
        const ids = data?.shipment_id
          ? [data.shipment_id]
          : (
              await parcelo(ctx.config, 'GET', `/v1/shipments?reference=${encodeURIComponent(fulfillment_id)}`)
            ).shipments.map((s) => s.id);
        for (const id of ids) await parcelo(ctx.config, 'POST', `/v1/shipments/${encodeURIComponent(id)}/cancel`, {});
        return {};
      },
      async createReturnFulfillment({ fulfillment_id, option_data, shipping_address, to_location, items }) {
        // The shopper's address is where Parcelo picks the parcel up; it goes back to the shop's location.
        const shipment = await parcelo(
          ctx.config,
          'POST',
          '/v1/returns',
          {
            reference: fulfillment_id,
            service: serviceOf(option_data),
            from: destination(shipping_address),
            return_to: to_location?.name ?? null,
            parcels: items.map((i) => ({ quantity: i.quantity })),
          },
          fulfillment_id,
        );
        return made(shipment);
      },
    });
  },
};
