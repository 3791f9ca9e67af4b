import type { TxCtx } from '../context.ts';
import { newId } from '../ids.ts';
import type { EventName } from './names.ts';
import { outbox } from './tables.ts';

/** NOTIFY channel that wakes dispatchers when events commit (sent by the outbox insert trigger, migration 0016). */
export const OUTBOX_CHANNEL = 'emporium_outbox';

/**
 * Records an event in the outbox inside the caller's transaction, so the event exists
 * exactly when the change it describes commits. Delivery happens later, from the dispatcher.
 */
export async function emit(tctx: TxCtx, name: EventName, payload: { id: string } & Record<string, unknown>): Promise<void> {
  await tctx.tx.insert(outbox).values({ id: newId('evt'), name, payload, created_at: tctx.clock.now() });
}
