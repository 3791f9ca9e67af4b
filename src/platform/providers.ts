/**
 * Providers that plugins register at run time (payment processors, notification senders), as the
 * shop sees them: a port per provider that takes a method name and a JSON input and answers JSON,
 * within a deadline. Nothing of the plugin's own objects crosses this line, so the same port can
 * later be served by a plugin running in another process. The registries hold what runs now on
 * this instance; the plugin host fills and empties them as plugins load and unload.
 */

import type { JsonObject, JsonValue } from '../../plugin-sdk/json.ts';

/** A JSON object: what crosses the line between the shop and a provider, both ways. */
export type { JsonObject, JsonValue };

export interface ProviderPort {
  /** Shop-wide id, e.g. `pp_stripe` (payments) or `smtp` (notifications). */
  id: string;
  /** Manifest id of the plugin that registered it. */
  owner: string;
  name: string;
  /** The methods the provider implements (optional ones may be missing). */
  methods: string[];
  /** Notification providers: the channels they send on (`email`, `sms`, …). */
  channels: string[];
  /**
   * Calls `method` with a JSON copy of `input`; resolves with the provider's JSON answer. Rejects
   * with ProviderTimeoutError after `timeoutMs`, with ProviderCallError when the provider threw.
   */
  call(method: string, input: JsonObject, timeoutMs: number): Promise<JsonObject>;
}

/** The provider threw (a processor declined, a bad configuration): its message is kept. */
export class ProviderCallError extends Error {
  constructor(
    readonly providerId: string,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** No answer within the deadline: the outcome is unknown (retry with the same idempotency key). */
export class ProviderTimeoutError extends Error {
  constructor(
    readonly providerId: string,
    readonly timeoutMs: number,
  ) {
    super(`${providerId} did not answer within ${timeoutMs} ms`);
  }
}

/** Providers of one kind by id, each owned by the plugin that registered it. */
export class ProviderRegistry {
  private readonly ports = new Map<string, ProviderPort>();

  get(id: string): ProviderPort | undefined {
    return this.ports.get(id);
  }

  has(id: string): boolean {
    return this.ports.has(id);
  }

  list(): ProviderPort[] {
    return [...this.ports.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The owner of `id` when another plugin than `owner` holds it. */
  takenBy(id: string, owner: string): string | undefined {
    const held = this.ports.get(id);
    return held && held.owner !== owner ? held.owner : undefined;
  }

  add(port: ProviderPort): void {
    this.ports.set(port.id, port);
  }

  removeOwner(owner: string): void {
    for (const [id, port] of this.ports) if (port.owner === owner) this.ports.delete(id);
  }
}

/** Both kinds, created once per app and shared by the plugin host, the routes and the workers. */
export interface Providers {
  payment: ProviderRegistry;
  notification: ProviderRegistry;
  /** Tax providers (`tp_…`), chosen by a tax region's `provider_id`. */
  tax: ProviderRegistry;
  /** Fulfilment providers (`fp_…`), chosen by a shipping option's `provider_id`. */
  fulfillment: ProviderRegistry;
  /** How long the shop waits for one provider call (PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
}

export function createProviders(timeoutMs: number): Providers {
  return {
    payment: new ProviderRegistry(),
    notification: new ProviderRegistry(),
    tax: new ProviderRegistry(),
    fulfillment: new ProviderRegistry(),
    timeoutMs,
  };
}
