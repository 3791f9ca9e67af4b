/** A tax line as Medusa shows it on a line item or shipping method. */
export interface TaxLineJson {
  id: string;
  rate_id: string | null;
  code: string;
  name: string;
  /** Percent. */
  rate: number;
  provider_id: string;
  description: string | null;
}

/** A discount on a line or method, excluding tax, in minor units (exact decimal text). */
export interface AdjustmentJson {
  id: string;
  code: string;
  promotion_id: string;
  amount: string;
  description: string | null;
  /** The amount includes tax (its promotion is tax-inclusive); absent on adjustments stored before. */
  is_tax_inclusive?: boolean;
}

/** What prices a line or method beyond its amount: kept on order lines at placement, so totals never move. */
export interface ChargePricingJson {
  is_tax_inclusive: boolean;
  tax_lines: TaxLineJson[];
  adjustments: AdjustmentJson[];
}
