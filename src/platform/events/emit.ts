import { sql, type SQL } from 'drizzle-orm';
import type { CoreEvents, CustomEventPayload } from '../../../plugin-sdk/events.ts';
import type { Ctx, TxCtx } from '../context.ts';
import { newId } from '../ids.ts';
import type { EventName } from './names.ts';
import { outbox } from './tables.ts';

/** NOTIFY channel that wakes dispatchers when events commit (sent by the outbox insert trigger, migration 0016). */
export const OUTBOX_CHANNEL = 'emporium_outbox';

/**
 * Records a core event in the outbox inside the caller's transaction, so the event exists
 * exactly when the change it describes commits. Delivery happens later, from the dispatcher.
 * The payload type follows from the name (`CoreEvents` in the plugin SDK).
 */
export function emit<K extends EventName>(tctx: TxCtx, name: K, payload: CoreEvents[K]): Promise<void> {
  return writeOutbox(tctx, name, payload);
}

/** A plugin's own event, already namespaced `<manifest id>.<name>` by the plugin host. */
export function emitCustom(tctx: TxCtx, name: `${string}.${string}`, payload: CustomEventPayload): Promise<void> {
  return writeOutbox(tctx, name, payload);
}

async function writeOutbox(tctx: TxCtx, name: string, payload: object): Promise<void> {
  await tctx.tx
    .insert(outbox)
    .values({ id: newId('evt'), name, payload: payload as Record<string, unknown>, created_at: tctx.clock.now() });
}

/**
 * The outbox row of a core event as one write for the caller's statement (db/one-statement.ts),
 * so a change and its event commit in one round trip, as `emit` does in two. `fill` sets
 * top-level payload fields that only the same statement knows (an order's `display_id`, drawn
 * from its sequence by a sibling part): each a scalar SQL expression.
 */
export function eventWrite<K extends EventName>(
  ctx: Ctx,
  name: K,
  payload: CoreEvents[K],
  fill: Record<string, SQL> = {},
): SQL {
  const filled = Object.entries(fill).map(([key, value]) => sql`${key}::text, to_jsonb(${value})`);
  const doc = filled.length
    ? sql`${JSON.stringify(payload)}::jsonb || jsonb_build_object(${sql.join(filled, sql`, `)})`
    : sql`${JSON.stringify(payload)}::jsonb`;
  return sql`insert into outbox (id, name, payload, created_at)
    values (${newId('evt')}, ${name}::text, ${doc}, ${ctx.clock.now().toISOString()}::timestamptz)`;
}
