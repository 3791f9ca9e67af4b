import { jsonObjectOf } from '../../platform/json.ts';
import type { Ctx } from '../../platform/context.ts';
import type { Providers } from '../../platform/providers.ts';
import { setSessionOutcome } from '../payments/collections.ts';
import { callPaymentProvider } from '../payments/provider-calls.ts';
import { SYSTEM_PROVIDER } from '../payments/schema.ts';

interface Releasable {
  id: string;
  provider_id: string;
  amount: number;
  currency_code: string;
  status: string;
  data: Record<string, unknown>;
}

/**
 * Releases sessions of plugin providers that will not become a payment (replaced by a new
 * session, or their cart failed to complete after authorizing), so the shopper's funds are not
 * held for days. Best effort: a processor that refuses or does not answer is logged, and its
 * authorization lapses on its own; the cart is not affected either way.
 */
export async function releaseSessions(ctx: Ctx, providers: Providers, sessions: Releasable[]): Promise<void> {
  for (const s of sessions) {
    if (s.provider_id === SYSTEM_PROVIDER || s.status === 'canceled') continue;
    try {
      const answer = await callPaymentProvider(
        providers,
        s.provider_id,
        'cancelPayment',
        {
          session_id: s.id,
          amount: s.amount,
          currency_code: s.currency_code,
          data: jsonObjectOf(s.data),
        },
        `cancel:${s.id}`,
      );
      await setSessionOutcome(ctx, s.id, { status: 'canceled', data: answer.data ?? s.data });
    } catch (err) {
      ctx.log.warn({ err, session: s.id, provider: s.provider_id }, 'payment session not released with its provider');
    }
  }
}
