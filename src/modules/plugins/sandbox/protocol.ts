import type { PluginEvent, PluginRequest } from '../../../../plugin-sdk/index.ts';

/**
 * The channel between the shop and a plugin's process, written once: the shop's side
 * (plugin-process.ts, serve-ctx.ts) imports these types, and the child's plain-JS side
 * (child/runner.mjs, child/context.mjs) is type-checked against them through JSDoc, so an
 * operation renamed or an argument dropped on one side fails `npm run typecheck`.
 * Types only: the child imports nothing from the shop at run time.
 */

/** Configuration values as the child sees them (`ctx.config`). */
export type ConfigValues = Readonly<Record<string, unknown>>;

/** What the shop asks the child to do, each with its arguments and its answer. */
export interface HostCalls {
  /** Import the server entry and run `register(ctx)`. */
  load: {
    args: { entry: string; meta: { id: string; version: string; entryName: string }; config: ConfigValues };
    result: { onConfigure: boolean };
  };
  /** Run route handler `hid`: its answer already serialized (null for none). */
  route: { args: { hid: number; req: PluginRequest }; result: string | null };
  event: { args: { hid: number; event: PluginEvent }; result: void };
  provider: { args: { pid: number; method: string; input: unknown }; result: unknown };
  configure: { args: { config: ConfigValues }; result: void };
  unload: { args: Record<string, never>; result: void };
  stats: { args: Record<string, never>; result: { rss: number; heap_used: number; heap_total: number } };
  ping: { args: Record<string, never>; result: 'pong' };
}
export type HostOp = keyof HostCalls;

/** A value the child passes for a field the shop validates (ids, names, paths). */
export type Plain = string | number | boolean | null | undefined;

/**
 * What the child's ctx asks the shop for. `on`, `route`, `provider` and `log` are notices (no id,
 * no answer); the others are calls the shop answers.
 */
export interface CtxCalls {
  on: { args: { pattern: Plain; hid: number }; result: void };
  route: { args: { surface: 'admin' | 'store'; method: Plain; path: Plain; hid: number }; result: void };
  provider: {
    args: {
      kind: 'payment' | 'notification' | 'tax' | 'fulfillment';
      pid: number;
      id: Plain;
      name: Plain;
      channels: Plain[] | null;
      methods: string[];
    };
    result: void;
  };
  log: {
    args: { level: 'debug' | 'info' | 'warn' | 'error'; message: string; data: Record<string, unknown> };
    result: void;
  };
  'db.query': { args: { text: Plain; params: unknown[] }; result: Record<string, unknown>[] };
  'orders.retrieve': { args: { id: Plain }; result: (Record<string, unknown> & { id: string }) | null };
  emit: { args: { name: Plain; payload: unknown }; result: void };
}
export type CtxOp = keyof CtxCalls;
/** Every ctx operation, so the shop can tell a known one from anything else a child sends. */
export const CTX_OPS: readonly CtxOp[] = ['on', 'route', 'provider', 'log', 'db.query', 'orders.retrieve', 'emit'];

/** An error as it crosses the channel: the message, and the status, code and load phase if any. */
export interface WireError {
  message: string;
  status?: number;
  code?: string;
  phase?: string;
}

/** Shop → child. */
export type HostRequest = { [K in HostOp]: { t: 'req'; id: number; op: K; args: HostCalls[K]['args'] } }[HostOp];
/** Child → shop (a call carries an id and waits for its reply; a notice does not). */
export type CtxRequest = { [K in CtxOp]: { t: 'ctx'; id?: number; op: K; args: CtxCalls[K]['args'] } }[CtxOp];
/** The answer to either, sent by the side that was asked. */
export type Reply =
  | { t: 'res'; id: number; ok: true; value: unknown }
  | { t: 'res'; id: number; ok: false; error: WireError };

/**
 * A ctx message as the shop receives it: the operation is known, the arguments are the child's
 * claim (any value), so every field is read as unknown and checked before use.
 */
export type UntrustedCtx = {
  [K in CtxOp]: { id?: number; op: K; args: { [F in keyof CtxCalls[K]['args']]?: unknown } };
}[CtxOp];

/** The child's handlers for the shop's requests (runner.mjs). */
export type HostHandlers = { [K in HostOp]: (args: HostCalls[K]['args']) => Promise<HostCalls[K]['result']> };

/** How the child's ctx (context.mjs) reaches the shop. */
export interface CtxPort {
  call<K extends 'db.query' | 'orders.retrieve' | 'emit'>(
    op: K,
    args: CtxCalls[K]['args'],
  ): Promise<CtxCalls[K]['result']>;
  notify<K extends 'on' | 'route' | 'provider' | 'log'>(op: K, args: CtxCalls[K]['args']): void;
  /** Keeps a handler function and returns the id the shop calls it by. */
  handler(fn: object): number;
  /** Keeps a provider object and returns its id. */
  provider(obj: Record<string, unknown>): number;
  config(): ConfigValues;
}
