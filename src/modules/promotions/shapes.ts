/** A promotion's parts as stored (JSON beside the promotion) and shown, in Medusa's shape. */
export interface RuleJson {
  id: string;
  attribute: string;
  operator: 'eq' | 'ne' | 'in' | 'gt' | 'gte' | 'lt' | 'lte';
  description: string | null;
  values: { id: string; value: string }[];
}

export interface ApplicationMethodJson {
  id: string;
  type: 'fixed' | 'percentage';
  target_type: 'items' | 'shipping_methods' | 'order';
  allocation: 'each' | 'across' | null;
  /** Percent, or an amount in minor units of `currency_code`. */
  value: number;
  currency_code: string | null;
  max_quantity: number | null;
  apply_to_quantity: number | null;
  buy_rules_min_quantity: number | null;
  target_rules: RuleJson[];
  buy_rules: RuleJson[];
}
