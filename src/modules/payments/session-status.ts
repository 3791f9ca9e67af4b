import type { PaymentSessionStatus } from '../../../plugin-sdk/payments.ts';
import type { SessionRow } from './queries.ts';

const KNOWN = new Set(['pending', 'requires_more', 'authorized', 'canceled', 'error']);

/**
 * A provider's status as a session's: `captured` (a processor that captures at once) counts as
 * authorized for checkout, and anything unknown as pending, so a provider cannot write a status
 * the shop does not understand.
 */
export function sessionStatus(status: PaymentSessionStatus | string | undefined): SessionRow['status'] {
  if (status === 'captured') return 'authorized';
  return (status && KNOWN.has(status) ? status : 'pending') as SessionRow['status'];
}
