import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../src/platform/db/database.ts';

/** A node of EXPLAIN (FORMAT JSON). */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Join Type'?: string;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/**
 * Runs `fn` with an executor that EXPLAINs every statement sent through `execute` (the raw-SQL
 * path every hot read uses) instead of running it, and returns those plans. `fn` may fail on the
 * plan-shaped rows it gets back; that is ignored.
 */
export async function plansOf(db: Db, fn: (exec: Executor) => Promise<unknown>): Promise<PlanNode[]> {
  const plans: PlanNode[] = [];
  const spy = {
    async execute(query: SQL) {
      const res = (await db.execute(sql`explain (format json) ${query}`)) as unknown as {
        rows: Record<string, unknown>[];
      };
      const raw = Object.values(res.rows[0])[0];
      const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
      plans.push(doc[0].Plan);
      return { rows: [] };
    },
  } as unknown as Executor;
  await fn(spy).catch(() => {});
  return plans;
}

export function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

/** One line per node, indented, for messages and for reading. */
export function planText(plan: PlanNode, depth = 0): string {
  const what = [plan['Node Type'], plan['Join Type'], plan['Relation Name'], plan['Index Name']]
    .filter(Boolean)
    .join(' ');
  return [`${'  '.repeat(depth)}${what}`, ...(plan.Plans ?? []).map((p) => planText(p, depth + 1))].join('\n');
}
