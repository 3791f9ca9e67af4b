import type { Ctx } from '../../platform/context.ts';
import { appError } from '../../platform/http/errors.ts';
import { TaxQuestionFirst } from './provider-taxes.ts';

/**
 * A plugin's tax provider (a remote service, maybe slow) is never asked while a cart's transaction
 * holds the cart's lock. The transaction prices the cart with the answers it was given; a question
 * it was not given an answer to (the first time, or the cart changed since it was asked: its items,
 * address, methods) stops it before it writes, the provider is asked with no transaction open, and
 * the transaction runs again, checking that the cart still asks the same. At most TAX_ASKS asks,
 * then a 503: the cart keeps changing under its own write.
 */

export const TAX_ASKS = 5;

/** Runs `run` (a cart's transaction) with its tax provider's answers asked outside it. */
export async function askingTaxesFirst<T>(ctx: Ctx, run: (ctx: Ctx) => Promise<T>): Promise<T> {
  if (ctx.providerAnswers) return run(ctx); // an outer loop answers
  const answers = new Map<string, unknown>();
  const actx: Ctx = { ...ctx, providerAnswers: answers };
  for (let asked = 0; ; ) {
    try {
      return await run(actx);
    } catch (err) {
      asked = await answerFirst(err, answers, asked);
    }
  }
}

/** Asks the question a transaction stopped at (anything else is thrown on); answers how many asks so far. */
export async function answerFirst(err: unknown, answers: Map<string, unknown>, asked: number): Promise<number> {
  if (!(err instanceof TaxQuestionFirst)) throw err;
  if (asked >= TAX_ASKS) throw appError('tax_provider_cart_changing', { tries: TAX_ASKS });
  answers.set(err.question, await err.ask());
  return asked + 1;
}
