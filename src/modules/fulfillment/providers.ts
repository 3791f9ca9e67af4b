import { appError, errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { ProviderTimeoutError, type JsonObject, type JsonValue, type Providers } from '../../platform/providers.ts';

/** The built-in provider: the merchant ships by hand; no labels, no prices of its own. */
export const MANUAL_PROVIDER = 'manual_manual';

/** The shop's id of a fulfilment provider a plugin registered as `id`. */
export const fulfillmentProviderId = (id: string) => `fp_${id}`;

type Method =
  | 'getFulfillmentOptions'
  | 'validateFulfillmentData'
  | 'canCalculate'
  | 'calculatePrice'
  | 'createFulfillment'
  | 'cancelFulfillment'
  | 'createReturnFulfillment';

/** What the manual provider answers: Medusa's manual provider, method by method. */
function manual(method: Method, input: JsonObject): JsonObject {
  switch (method) {
    case 'getFulfillmentOptions':
      return { options: [{ id: 'manual-fulfillment' }, { id: 'manual-fulfillment-return', is_return: true }] };
    case 'validateFulfillmentData':
      return { data: (input.data as JsonObject) ?? {} };
    case 'canCalculate':
      return { can_calculate: false };
    case 'calculatePrice':
      throw errors.invalid('fulfillment_provider_cannot_calculate', { id: MANUAL_PROVIDER });
    case 'createFulfillment':
    case 'createReturnFulfillment':
      return { data: {}, labels: [] };
    case 'cancelFulfillment':
      return {};
  }
}

/** A label of a carrier's answer, as the shop keeps it (the id is the shop's; a field left out reads ''). */
export interface CarrierLabel {
  id: string;
  tracking_number: string;
  tracking_url: string;
  label_url: string;
}

/**
 * The labels a carrier's `createFulfillment` or `createReturnFulfillment` answered, each given an
 * id by `newLabelId`. An answer whose labels are not a list, or a label that is null, is the
 * carrier's error, thrown as such.
 */
export function carrierLabels(made: JsonObject, newLabelId: () => string): CarrierLabel[] {
  const labels = made.labels ?? [];
  if (!Array.isArray(labels)) throw new TypeError('a carrier answered labels that are not a list');
  return labels.map((l) => {
    if (l === null) throw new TypeError('a carrier answered a null label');
    const field = (k: string): JsonValue | undefined => (typeof l === 'object' && !Array.isArray(l) ? l[k] : undefined);
    return {
      id: newLabelId(),
      tracking_number: String(field('tracking_number') ?? ''),
      tracking_url: String(field('tracking_url') ?? ''),
      label_url: String(field('label_url') ?? ''),
    };
  });
}

export function providerExists(providers: Providers, id: string): boolean {
  return id === MANUAL_PROVIDER || providers.fulfillment.has(id);
}

export function assertProvider(providers: Providers, id: string): void {
  if (!providerExists(providers, id))
    throw errors.invalid('shipping_option_reference_missing', { what: 'Fulfillment provider', id });
}

/**
 * Calls a provider's method with JSON, within the shop's deadline. A plugin's provider that
 * throws, times out or is gone is a 502 naming it (nothing is written: callers call before
 * their writes, or inside the transaction that the error rolls back).
 */
export async function callFulfillmentProvider(
  providers: Providers,
  id: string,
  method: Method,
  input: JsonObject,
): Promise<JsonObject> {
  if (id === MANUAL_PROVIDER) return manual(method, input);
  const port = providers.fulfillment.get(id);
  if (!port) throw errors.notFound('fulfillment_provider_not_found', { id });
  if (!port.methods.includes(method)) {
    if (method === 'canCalculate') return { can_calculate: port.methods.includes('calculatePrice') };
    if (method === 'validateFulfillmentData') return { data: (input.data as JsonObject) ?? {} };
    if (method === 'calculatePrice') throw errors.invalid('fulfillment_provider_cannot_calculate', { id });
    // Optional in the SDK: without it a return parcel is recorded without a label, as the manual provider's.
    if (method === 'createReturnFulfillment') return { data: {}, labels: [] };
    throw appError('fulfillment_provider_failed', { id, detail: `${method} is not implemented` });
  }
  try {
    return await port.call(method, input, providers.timeoutMs);
  } catch (err) {
    const failed = appError('fulfillment_provider_failed', { id, detail: (err as Error).message });
    if (err instanceof ProviderTimeoutError) timedOut.add(failed);
    throw failed;
  }
}

const timedOut = new WeakSet<object>();

/** The provider gave no answer in time: it may have done what it was asked (retry with the same id). */
export const isProviderTimeout = (err: unknown): boolean => typeof err === 'object' && !!err && timedOut.has(err);

/**
 * A carrier call recorded as under way (`calling`) for longer than this lost its request (a crash,
 * a restart): a retry may take it over, as one whose carrier did not answer.
 */
export const carrierCallLostAfterMs = (providers: Providers) => 2 * providers.timeoutMs + 5_000;

/** `GET /admin/fulfillment-providers`: the manual provider and every plugin's that runs now. */
export function listProviders(providers: Providers, ids: string[] | undefined, page: Page) {
  const all = [
    { id: MANUAL_PROVIDER, is_enabled: true, name: 'Manual fulfilment', plugin: null as string | null },
    ...providers.fulfillment.list().map((p) => ({ id: p.id, is_enabled: true, name: p.name, plugin: p.owner })),
  ].filter((p) => !ids || ids.includes(p.id));
  return { fulfillment_providers: all.slice(page.offset, page.offset + page.limit), count: all.length, ...page };
}

export async function providerOptions(providers: Providers, id: string) {
  if (!providerExists(providers, id)) throw errors.notFound('fulfillment_provider_not_found', { id });
  const answer = await callFulfillmentProvider(providers, id, 'getFulfillmentOptions', {});
  return { fulfillment_options: (answer.options as JsonObject[]) ?? [] };
}
