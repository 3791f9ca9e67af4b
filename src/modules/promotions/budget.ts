import { sql, type SQL } from 'drizzle-orm';
import type { NamedPart } from '../../platform/db/one-statement.ts';
import { refuseOnViolation } from '../../platform/db/refusals.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { sum } from '../totals/charge-totals.ts';
import type { Adjustment } from './compute.ts';
import type { StoredPromotion } from './stored.ts';

/**
 * A placed order's use of its promotions, as named parts of the order's statement: each
 * campaign's budget moves only while it stays within its limit (the row lock makes concurrent
 * orders take turns, and each re-checks the limit on the row the previous one left), and the
 * usage row's check refuses the order when it found none left. So a budget of 10 uses gives
 * exactly 10 discounted orders however many complete at once; the rest get a 400 and nothing.
 */
refuseOnViolation('promotion_usages_within_budget', () => errors.notAllowed('promotion_budget_exhausted'));

export function promotionUsageWrites(
  orderId: string,
  used: StoredPromotion[],
  adjustments: Pick<Adjustment, 'promotion_id' | 'amount'>[],
  now: Date,
): NamedPart[] {
  const parts: NamedPart[] = [];
  used.forEach((p, i) => {
    const amount = sum(adjustments.filter((a) => a.promotion_id === p.promotion.id).map((a) => a.amount)).toString();
    const c = p.campaign;
    const budgeted = c?.budget_type && c.budget_limit != null;
    const step = c?.budget_type === 'spend' ? amount : '1';
    const name = `promotion_budget_${i}`;
    let within: SQL = sql`true`;
    if (budgeted) {
      parts.push([
        name,
        sql`update campaigns set budget_used = budget_used + ${step}::numeric, updated_at = ${now.toISOString()}::timestamptz
          where id = ${c.id} and budget_used + ${step}::numeric <= budget_limit returning id`,
      ]);
      within = sql`exists (select 1 from ${sql.identifier(name)})`;
    } else if (c?.budget_type) {
      parts.push([name, sql`update campaigns set budget_used = budget_used + ${step}::numeric where id = ${c.id}`]);
    }
    parts.push([
      `promotion_usage_${i}`,
      sql`insert into promotion_usages (id, order_id, promotion_id, campaign_id, code, amount, within_budget, created_at)
      values (${newId('promuse')}, ${orderId}, ${p.promotion.id}, ${c?.id ?? null}, ${p.promotion.code}, ${amount}::numeric,
        ${within}, ${now.toISOString()}::timestamptz)`,
    ]);
  });
  return parts;
}
