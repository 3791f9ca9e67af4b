import type {
  FulfillmentProvider,
  NotificationProvider,
  PaymentProvider,
  PluginContext,
  TaxProvider,
} from '../../../plugin-sdk/index.ts';
import { fulfillmentProviderId } from '../fulfillment/providers.ts';
import {
  ProviderCallError,
  ProviderTimeoutError,
  type JsonObject,
  type ProviderPort,
  type Providers,
} from '../../platform/providers.ts';
import { PluginTimeoutError, withTimeout } from './timeout.ts';

/**
 * THE SEAM between a plugin's provider objects and the shop. `ctx.payments.register(p)`,
 * `ctx.notifications.register(p)` and `ctx.taxes.register(p)` land here: the object is checked and wrapped in a ProviderPort
 * (`call(method, jsonInput, timeoutMs)` → JSON), kept on the plugin's Registration until the host
 * activates it (host.ts: `activateProviders`, `removeProviders`). The shop only ever calls ports:
 * every argument and answer is copied through JSON and every call has a deadline, so a port can
 * be re-pointed at a plugin running in another process (an RPC call) without changing any caller.
 */

const SLUG = /^[a-z0-9]+([_-][a-z0-9]+)*$/;
const PAYMENT_REQUIRED = [
  'initiatePayment',
  'authorizePayment',
  'capturePayment',
  'refundPayment',
  'cancelPayment',
  'getPaymentStatus',
] as const;
const PAYMENT_OPTIONAL = ['getWebhookActionAndData'] as const;

export type ProviderKind = 'payment' | 'notification' | 'tax' | 'fulfillment';

/** A provider a plugin registered, waiting on its Registration to go live. */
export interface StagedProvider {
  kind: ProviderKind;
  port: ProviderPort;
}

/** The shop's id of a payment provider registered as `id`. */
export const paymentProviderId = (id: string) => `pp_${id}`;
/** The shop's id of a tax provider registered as `id` (a tax region's `provider_id`). */
export const taxProviderId = (id: string) => `tp_${id}`;

const REGISTRAR: Record<ProviderKind, string> = {
  payment: 'payments',
  notification: 'notifications',
  tax: 'taxes',
  fulfillment: 'fulfillments',
};
const FULFILLMENT_REQUIRED = ['getFulfillmentOptions', 'createFulfillment', 'cancelFulfillment'] as const;
const FULFILLMENT_OPTIONAL = ['validateFulfillmentData', 'calculatePrice', 'createReturnFulfillment'] as const;

function jsonCopy(providerId: string, value: unknown, what: string): JsonObject {
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(value ?? {}));
  } catch (err) {
    throw new ProviderCallError(providerId, `${what} is not JSON: ${(err as Error).message}`);
  }
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy))
    throw new ProviderCallError(providerId, `${what} must be a JSON object`);
  return copy as JsonObject;
}

/** A member of a plugin's object, read as untrusted: its declared type is the plugin's word only. */
const member = (impl: object, name: string): unknown => Reflect.get(impl, name);

/** Wraps a plugin's object: JSON in, JSON out, a deadline on every call, errors as the shop's kinds. */
function portOf(
  impl: object,
  meta: { id: string; owner: string; name: string; methods: string[]; channels: string[] },
): ProviderPort {
  return {
    ...meta,
    async call(method, input, timeoutMs) {
      const fn = meta.methods.includes(method) ? member(impl, method) : undefined;
      if (typeof fn !== 'function') throw new ProviderCallError(meta.id, `${meta.id} does not implement ${method}`);
      const arg = jsonCopy(meta.id, input, `${method} input`);
      let answer: unknown;
      try {
        answer = await withTimeout(
          Promise.resolve().then(() => fn.call(impl, arg)),
          timeoutMs,
          `${meta.id}.${method}`,
        );
      } catch (err) {
        if (err instanceof PluginTimeoutError) throw new ProviderTimeoutError(meta.id, timeoutMs);
        const e = err as { message?: unknown; code?: unknown };
        const message = typeof e?.message === 'string' && e.message ? e.message : String(err);
        throw new ProviderCallError(meta.id, message, typeof e?.code === 'string' ? e.code : null);
      }
      return jsonCopy(meta.id, answer, `${method} answer`);
    },
  };
}

function checkId(kind: string, id: unknown): string {
  if (typeof id !== 'string' || !SLUG.test(id) || id.length > 64)
    throw new Error(`ctx.${kind}.register: id must be a lower-case slug such as "stripe", got ${JSON.stringify(id)}`);
  return id;
}

/**
 * `ctx.payments` and `ctx.notifications` for one plugin's register(ctx). A provider id another
 * plugin holds, or one registered twice, throws (the plugin then fails to load, with that message).
 */
export function providerRegistrars(deps: {
  manifestId: string;
  providers: Providers;
  staged: StagedProvider[];
  /** The Registration's state: staged providers go live on activation, later ones at once. */
  state: () => 'staged' | 'active' | 'disposed';
}): Pick<PluginContext, 'payments' | 'notifications' | 'taxes' | 'fulfillments'> {
  const { manifestId: owner, providers, staged } = deps;
  const stage = (kind: ProviderKind, port: ProviderPort) => {
    if (deps.state() === 'disposed') throw new Error(`ctx.${REGISTRAR[kind]}: plugin unloaded`);
    const other = providers[kind].takenBy(port.id, owner);
    if (other) throw new Error(`${kind} provider ${port.id} is already registered by plugin ${other}`);
    if (staged.some((s) => s.kind === kind && s.port.id === port.id))
      throw new Error(`${kind} provider ${port.id} is registered twice`);
    staged.push({ kind, port });
    if (deps.state() === 'active') providers[kind].add(port);
  };
  return {
    payments: {
      register(provider: PaymentProvider) {
        const id = checkId('payments', provider?.id);
        if (id === 'system_default') throw new Error('ctx.payments.register: pp_system_default is the shop’s own');
        const missing = PAYMENT_REQUIRED.filter((m) => typeof member(provider, m) !== 'function');
        if (missing.length) throw new Error(`ctx.payments.register(${id}): missing ${missing.join(', ')}`);
        const methods = [
          ...PAYMENT_REQUIRED,
          ...PAYMENT_OPTIONAL.filter((m) => typeof member(provider, m) === 'function'),
        ];
        const name = typeof provider.name === 'string' && provider.name ? provider.name : id;
        stage('payment', portOf(provider, { id: paymentProviderId(id), owner, name, methods, channels: [] }));
      },
    },
    notifications: {
      register(provider: NotificationProvider) {
        const id = checkId('notifications', provider?.id);
        if (typeof member(provider, 'send') !== 'function')
          throw new Error(`ctx.notifications.register(${id}): missing send`);
        const channels = Array.isArray(provider.channels) ? provider.channels : [];
        if (!channels.length || channels.some((c) => typeof c !== 'string' || !SLUG.test(c)))
          throw new Error(`ctx.notifications.register(${id}): channels must list slugs such as "email"`);
        const name = typeof provider.name === 'string' && provider.name ? provider.name : id;
        stage('notification', portOf(provider, { id, owner, name, methods: ['send'], channels: [...channels] }));
      },
    },
    taxes: {
      register(provider: TaxProvider) {
        const id = checkId('taxes', provider?.id);
        if (id === 'system') throw new Error('ctx.taxes.register: tp_system is the shop’s own');
        if (typeof member(provider, 'getTaxLines') !== 'function')
          throw new Error(`ctx.taxes.register(${id}): missing getTaxLines`);
        const name = typeof provider.name === 'string' && provider.name ? provider.name : id;
        stage('tax', portOf(provider, { id: taxProviderId(id), owner, name, methods: ['getTaxLines'], channels: [] }));
      },
    },
    fulfillments: {
      register(provider: FulfillmentProvider) {
        const id = checkId('fulfillments', provider?.id);
        if (id === 'manual') throw new Error('ctx.fulfillments.register: manual_manual is the shop’s own');
        const missing = FULFILLMENT_REQUIRED.filter((m) => typeof member(provider, m) !== 'function');
        if (missing.length) throw new Error(`ctx.fulfillments.register(${id}): missing ${missing.join(', ')}`);
        const methods = [
          ...FULFILLMENT_REQUIRED,
          ...FULFILLMENT_OPTIONAL.filter((m) => typeof member(provider, m) === 'function'),
        ];
        const name = typeof provider.name === 'string' && provider.name ? provider.name : id;
        stage('fulfillment', portOf(provider, { id: fulfillmentProviderId(id), owner, name, methods, channels: [] }));
      },
    },
  };
}

/** Makes a plugin's staged providers live, replacing what the same plugin had registered before. */
export function activateProviders(providers: Providers, owner: string, staged: StagedProvider[]): void {
  removeProviders(providers, owner);
  for (const s of staged) providers[s.kind].add(s.port);
}

export function removeProviders(providers: Providers, owner: string): void {
  providers.payment.removeOwner(owner);
  providers.notification.removeOwner(owner);
  providers.tax.removeOwner(owner);
  providers.fulfillment.removeOwner(owner);
}
