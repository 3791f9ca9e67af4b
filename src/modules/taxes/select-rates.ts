import type { TaxLineJson } from '../totals/shapes.ts';

/**
 * Which rates tax a line or a shipping method, as Medusa's tax module picks them among the rates
 * of the address's country and province: the most specific first (a province before its country;
 * a rule on the product or shipping option, then on the product type, then the default), and,
 * when that rate is combinable, its country's best rate too.
 */

export interface CandidateRate {
  id: string;
  rate: string | number | null;
  code: string;
  name: string;
  is_default: boolean;
  is_combinable: boolean;
  region: { id: string; province_code: string | null; parent_id: string | null; provider_id: string | null };
  rules: { reference: string; reference_id: string }[];
}

export type Taxable =
  | { kind: 'item'; id: string; product_id: string; product_type_id: string | null }
  | { kind: 'shipping'; id: string; shipping_option_id: string };

function score(rate: CandidateRate, t: Taxable): number {
  const province = rate.region.province_code !== null;
  const matches = rate.rules.filter((r) =>
    t.kind === 'shipping'
      ? r.reference === 'shipping_option' && r.reference_id === t.shipping_option_id
      : (r.reference === 'product' && r.reference_id === t.product_id) ||
        (r.reference === 'product_type' && r.reference_id === t.product_type_id),
  );
  const direct = matches.some((r) => r.reference === 'product' || r.reference === 'shipping_option');
  const byType = matches.length > 0;
  if (direct) return province ? 1 : 4;
  if (byType) return province ? 2 : 5;
  if (rate.is_default) return province ? 3 : 6;
  return 7; // a rate whose rules name other products: not this line's
}

export function ratesFor(t: Taxable, candidates: CandidateRate[]): CandidateRate[] {
  const ranked = candidates
    .map((rate) => ({ rate, score: score(rate, t) }))
    .filter((x) => x.score < 7)
    .sort((a, b) => a.score - b.score)
    .map((x) => x.rate);
  const best = ranked[0];
  if (!best) return [];
  if (!(best.is_combinable && best.region.parent_id)) return [best];
  const parent = ranked.find((r) => r.region.id === best.region.parent_id);
  return parent ? [best, parent] : [best];
}

/** The built-in provider's tax lines: one per chosen rate (Medusa's `system` provider). */
export function systemTaxLines(t: Taxable, candidates: CandidateRate[]): TaxLineJson[] {
  return ratesFor(t, candidates).map((r) => ({
    id: `${t.id}:${r.id}`,
    rate_id: r.id,
    code: r.code,
    name: r.name,
    rate: Number(r.rate ?? 0),
    provider_id: r.region.provider_id ?? 'tp_system',
    description: r.name,
  }));
}
