import type { TaxCalculationInput, TaxLinesOutput } from '../../../plugin-sdk/taxes.ts';
import type { Ctx, TxCtx } from '../../platform/context.ts';
import { appError } from '../../platform/http/errors.ts';
import { ProviderTimeoutError } from '../../platform/providers.ts';
import { ratesFor, type CandidateRate, type Taxable } from '../taxes/select-rates.ts';
import type { TaxLineJson } from '../totals/shapes.ts';
import type { PricingFacts } from './facts.ts';
import { isTaxed, type PricingCart } from './price-cart.ts';

/**
 * A plugin's tax provider computes the cart's tax lines when the address's tax region names one
 * (`provider_id: 'tp_<id>'`); `tp_system` (or no region) leaves them to the built-in rates in
 * priceCart. The answer is put on the cart's facts, so pricing itself stays synchronous. A provider
 * that is not running, throws, times out or answers something that is not tax lines refuses the
 * request with a 503: a cart is never shown, nor an order placed, without the tax it owes.
 */

const SYSTEM = 'tp_system';

type Question = Omit<TaxCalculationInput, 'context'>;

type Cart = Omit<PricingCart, 'region'> & { region: { automatic_taxes: boolean } | null };

const unavailable = (id: string, why: string) => appError('tax_provider_unavailable', { id, why });

function ratesOf(t: Taxable, candidates: CandidateRate[]) {
  return ratesFor(t, candidates).map((r) => ({ id: r.id, rate: Number(r.rate ?? 0), code: r.code, name: r.name }));
}

/** The cart's facts, with the provider's tax lines when its tax region names a plugin's provider. */
export async function withProviderTaxes(ctx: Ctx, cart: Cart): Promise<PricingFacts> {
  const facts = cart.pricing_facts;
  const id = facts.tax_provider_id;
  if (!id || id === SYSTEM || !isTaxed(cart) || (!cart.lines.length && !cart.methods.length)) return facts;
  if (!ctx.providers?.tax.has(id)) throw unavailable(id, 'is not running');
  const products = new Map(facts.products.map((p) => [p.id, p]));
  const inclusive = facts.currency_tax_inclusive;
  const address = cart.shipping_address;
  const input: Question = {
    cart: { id: cart.id, currency_code: cart.currency_code, customer_id: cart.customer_id, region_id: cart.region_id },
    shipping_address: {
      country_code: (address?.country_code ?? '').toLowerCase(),
      province_code: address?.province ?? null,
      postal_code: address?.postal_code ?? null,
      city: address?.city ?? null,
    },
    items: cart.lines.map((l) => {
      const product_type_id = products.get(l.product_id)?.type_id ?? null;
      return {
        id: l.id,
        product_id: l.product_id,
        product_type_id,
        variant_id: l.variant_id,
        quantity: l.quantity,
        unit_price: l.unit_price,
        is_tax_inclusive: inclusive,
        rates: ratesOf({ kind: 'item', id: l.id, product_id: l.product_id, product_type_id }, facts.tax_rates),
      };
    }),
    shipping_methods: cart.methods.map((m) => ({
      id: m.id,
      shipping_option_id: m.shipping_option_id,
      amount: m.amount,
      is_tax_inclusive: facts.region_tax_inclusive ?? inclusive,
      rates: ratesOf({ kind: 'shipping', id: m.id, shipping_option_id: m.shipping_option_id }, facts.tax_rates),
    })),
  };
  const question = questionKey(id, input);
  const answers = ctx.providerAnswers;
  let asked = answers?.get(question) as Asked | undefined;
  if (!asked && answers && (ctx as Partial<TxCtx>).tx)
    throw new TaxQuestionFirst(question, async () => ({ input, answer: await ask(ctx, id, input, cart.id) }));
  if (!asked) {
    asked = { input, answer: await ask(ctx, id, input, cart.id) };
    answers?.set(question, asked);
  }
  const provider_tax = readAnswer(id, renamed(asked.answer, asked.input, input), cart);
  return { ...facts, provider_tax };
}

/** A question asked with no transaction open, and the provider's answer. */
interface Asked {
  input: Question;
  answer: unknown;
}

/**
 * The question as a key: the input without its deadline, lines and methods named by position (a
 * transaction run again gives a line or method it adds a new id; the provider's answer is the same).
 */
function questionKey(id: string, input: Question): string {
  const items = input.items.map((i, n) => ({ ...i, id: n }));
  const shipping_methods = input.shipping_methods.map((m, n) => ({ ...m, id: n }));
  return `${id} ${JSON.stringify({ ...input, items, shipping_methods })}`;
}

/** An answer to `from` with the line and method ids of `to`, the same question asked by a later run. */
function renamed(answer: unknown, from: Question, to: Question): unknown {
  if (from === to) return answer;
  const a = answer as { item_tax_lines?: unknown; shipping_tax_lines?: unknown } | null;
  if (!Array.isArray(a?.item_tax_lines) || !Array.isArray(a?.shipping_tax_lines)) return answer;
  const rename = (lines: unknown[], key: string, was: { id: string }[], now: { id: string }[]) =>
    lines.map((l) => {
      const n = was.findIndex((x) => x.id === (l as Record<string, unknown>)?.[key]);
      return n < 0 ? l : { ...(l as object), [key]: now[n].id };
    });
  return {
    item_tax_lines: rename(a.item_tax_lines, 'line_item_id', from.items, to.items),
    shipping_tax_lines: rename(a.shipping_tax_lines, 'shipping_line_id', from.shipping_methods, to.shipping_methods),
  };
}

/** Asks the provider; a provider that is gone, throws or times out is the 503 tax_provider_unavailable. */
async function ask(ctx: Ctx, id: string, input: Question, cartId: string): Promise<unknown> {
  const port = ctx.providers?.tax.get(id);
  if (!port) throw unavailable(id, 'is not running');
  const timeoutMs = ctx.providers?.timeoutMs ?? 10_000;
  try {
    const context = { deadline: ctx.clock.now().getTime() + timeoutMs };
    // The SDK declares TaxRateInput an interface, which TS will not take as JSON (no index signature); it is.
    return await port.call('getTaxLines', { ...input, context } satisfies TaxCalculationInput as never, timeoutMs);
  } catch (err) {
    if (err instanceof ProviderTimeoutError) throw unavailable(id, `did not answer within ${timeoutMs} ms`);
    ctx.log.warn({ err, provider: id, cart: cartId }, 'tax provider failed');
    throw unavailable(id, 'failed');
  }
}

/**
 * Thrown inside a cart's transaction that needs a provider's answer it was not given: the
 * transaction rolls back, `ask` runs with none open, and the transaction runs again (tax-answers.ts).
 */
export class TaxQuestionFirst extends Error {
  constructor(
    readonly question: string,
    readonly ask: () => Promise<unknown>,
  ) {
    super('the tax provider is asked before the cart transaction');
  }
}

type Line = { rate?: unknown; code?: unknown; name?: unknown; rate_id?: unknown };

function taxLine(id: string, ownerId: string, l: Line, n: number): TaxLineJson {
  const rate = l.rate;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 1000)
    throw unavailable(id, 'answered a rate that is not a percentage');
  if (typeof l.code !== 'string' || typeof l.name !== 'string')
    throw unavailable(id, 'answered a tax line without code or name');
  return {
    id: `${ownerId}:${id}:${n}`,
    rate_id: typeof l.rate_id === 'string' ? l.rate_id : null,
    code: l.code,
    name: l.name,
    rate,
    provider_id: id,
    description: l.name,
  };
}

/** Every line and method the provider taxed must be the cart's; an untaxed one owes no tax (its choice). */
function readAnswer(id: string, answer: unknown, cart: Cart): NonNullable<PricingFacts['provider_tax']> {
  const a = answer as Partial<Record<keyof TaxLinesOutput, unknown>>;
  if (!Array.isArray(a?.item_tax_lines) || !Array.isArray(a?.shipping_tax_lines))
    throw unavailable(id, 'answered no item_tax_lines / shipping_tax_lines');
  const items: Record<string, TaxLineJson[]> = {};
  const shipping: Record<string, TaxLineJson[]> = {};
  const lineIds = new Set(cart.lines.map((l) => l.id));
  const methodIds = new Set(cart.methods.map((m) => m.id));
  for (const l of a.item_tax_lines as (Line & { line_item_id?: unknown })[]) {
    const owner = l?.line_item_id;
    if (typeof owner !== 'string' || !lineIds.has(owner)) throw unavailable(id, 'taxed a line the cart does not have');
    items[owner] ??= [];
    items[owner].push(taxLine(id, owner, l, items[owner].length));
  }
  for (const l of a.shipping_tax_lines as (Line & { shipping_line_id?: unknown })[]) {
    const owner = l?.shipping_line_id;
    if (typeof owner !== 'string' || !methodIds.has(owner))
      throw unavailable(id, 'taxed a shipping method the cart does not have');
    shipping[owner] ??= [];
    shipping[owner].push(taxLine(id, owner, l, shipping[owner].length));
  }
  return { items, shipping };
}
