/**
 * Tax providers: what a plugin implements so that a tax service (Avalara, TaxJar, …) computes a
 * cart's tax lines. Shaped after Medusa's ITaxProvider: `getTaxLines` gets the cart's lines and
 * shipping methods, each with the rates the shop's own tables would apply, and answers a tax line
 * per line and rate. A tax region whose `provider_id` is `tp_<id>` uses the provider registered as
 * `<id>`; `tp_system` is the shop's built-in provider (the rates as they are).
 *
 * Rules the shop keeps, whatever the provider does:
 * - Plain JSON both ways, and a deadline (`context.deadline`, unix milliseconds).
 * - A provider that throws, times out or answers nonsense never makes a cart tax-free: the
 *   shopper's request fails (503) and nothing is written.
 * - `rate` is a percentage (19 = 19 %), as in Medusa.
 *
 * @example
 * ```ts
 * ctx.taxes.register({
 *   id: 'flat',
 *   getTaxLines: ({ items, shipping_methods }) => ({
 *     item_tax_lines: items.map((i) => ({ line_item_id: i.id, rate: 10, code: 'FLAT', name: 'Flat tax' })),
 *     shipping_tax_lines: shipping_methods.map((m) => ({ shipping_line_id: m.id, rate: 0, code: 'FLAT', name: 'Flat tax' })),
 *   }),
 * });
 * ```
 */

/** A rate the shop's tax tables would apply (what the built-in provider uses). */
export interface TaxRateInput {
  id: string;
  rate: number;
  code: string;
  name: string;
}

export interface TaxCalculationInput {
  cart: { id: string; currency_code: string; customer_id: string | null; region_id: string };
  shipping_address: {
    country_code: string;
    province_code: string | null;
    postal_code: string | null;
    city: string | null;
  };
  items: {
    id: string;
    product_id: string;
    product_type_id: string | null;
    variant_id: string;
    quantity: number;
    /** Minor units, as everywhere in the shop. */
    unit_price: number;
    is_tax_inclusive: boolean;
    rates: TaxRateInput[];
  }[];
  shipping_methods: {
    id: string;
    shipping_option_id: string;
    amount: number;
    is_tax_inclusive: boolean;
    rates: TaxRateInput[];
  }[];
  context: { deadline: number };
}

export interface TaxLineOutput {
  rate: number;
  code: string;
  name: string;
  /** The shop's rate this line stands for, when there is one. */
  rate_id?: string | null;
}

export interface TaxLinesOutput {
  item_tax_lines: (TaxLineOutput & { line_item_id: string })[];
  shipping_tax_lines: (TaxLineOutput & { shipping_line_id: string })[];
}

export interface TaxProvider {
  /** Lower-case slug; the tax region's `provider_id` names it as `tp_<id>`. */
  id: string;
  name?: string;
  getTaxLines(input: TaxCalculationInput): TaxLinesOutput | Promise<TaxLinesOutput>;
}
