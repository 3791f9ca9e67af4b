import type { CoreEvents, CustomEventPayload } from '../../../plugin-sdk/events.ts';
import type { TxCtx } from '../context.ts';
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
