import { inTx, type Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import * as q from './queries.ts';
import type { BatchOptionRulesInput } from './schema.ts';
import { ruleRows } from './service.ts';

const ruleView = (r: q.RuleRow) => ({
  id: r.id,
  attribute: r.attribute,
  operator: r.operator,
  value: JSON.parse(r.value) as unknown,
  shipping_option_id: r.shipping_option_id,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/**
 * `POST /admin/shipping-options/{id}/rules/batch` (Medusa's): rules created, updated and deleted
 * in one transaction. An id to update or delete must be a rule of this option, else nothing is
 * written; the other rules of the option stay as they are (unlike `rules` on an update, which
 * replaces the list).
 */
export function batchOptionRules(ctx: Ctx, optionId: string, input: BatchOptionRulesInput) {
  return inTx(ctx, async ({ tx, clock }) => {
    if (!(await q.findLiveOption(tx, optionId))) throw errors.notFound('shipping_option_not_found', { id: optionId });
    const own = new Set((await q.rulesOf(tx, [optionId])).map((r) => r.id));
    const named = [...(input.update ?? []).map((r) => r.id), ...(input.delete ?? [])];
    const stranger = named.find((id) => !own.has(id));
    if (stranger) throw errors.invalid('shipping_option_rule_not_found', { id: stranger, option: optionId });
    const at = clock.now();
    const deleted = [...new Set(input.delete ?? [])];
    await q.deleteRules(tx, deleted);
    const updated: q.RuleRow[] = [];
    for (const r of input.update ?? []) {
      if (deleted.includes(r.id)) continue;
      const row = await q.updateRule(tx, r.id, {
        attribute: r.attribute,
        operator: r.operator,
        value: JSON.stringify(r.value),
        updated_at: at,
      });
      if (row) updated.push(row);
    }
    const created = await q.insertRules(tx, ruleRows(optionId, input.create ?? [], at));
    await q.updateOptionRow(tx, optionId, { updated_at: at });
    return {
      created: created.map(ruleView),
      updated: updated.map(ruleView),
      deleted: { ids: deleted, object: 'shipping_option_rule' as const, deleted: true as const },
    };
  });
}
