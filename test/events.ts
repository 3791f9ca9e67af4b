import type { TxCtx } from '../src/platform/context.ts';
import { emit } from '../src/platform/events/emit.ts';
import type { EventName } from '../src/platform/events/names.ts';

/**
 * Test-only: writes a core event with a made-up payload. The outbox, dispatcher and webhook
 * sender never look inside a payload, so their tests need not build a whole order.
 */
export function emitLoose(
  tctx: TxCtx,
  name: EventName,
  payload: { id: string } & Record<string, unknown>,
): Promise<void> {
  return emit(tctx, name, payload as never);
}
