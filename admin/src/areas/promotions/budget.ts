import { money } from '../../lib/format.ts';

/** A campaign's budget as the operator reads it: "3 of 100 uses", "€12.00 of €500.00 spent". */
export function budgetText(c: {
  budget: { type: string; limit: number | null; used: number; currency_code: string | null } | null;
}): string {
  const b = c.budget;
  if (!b) return 'No budget';
  if (b.type === 'usage') return `${b.used} of ${b.limit ?? '∞'} uses`;
  return `${money(b.used, b.currency_code)} of ${b.limit == null ? '∞' : money(b.limit, b.currency_code)} spent`;
}
