import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import type { Page } from '../../../platform/http/pagination.ts';
import { marketplacePayoutRuns, marketplaceSales, type PayoutStatus } from './tables.ts';

export type SaleRow = typeof marketplaceSales.$inferSelect;

/** Written once per source (a checkout, an invoice, a refund): a second report of the same payment writes nothing. */
export async function insertSaleOnce(db: Executor, row: typeof marketplaceSales.$inferInsert): Promise<SaleRow | null> {
  const [created] = await db
    .insert(marketplaceSales)
    .values(row)
    .onConflictDoNothing({ target: marketplaceSales.source_id })
    .returning();
  return created ?? null;
}

export async function findSale(db: Executor, id: string): Promise<SaleRow | undefined> {
  const [row] = await db.select().from(marketplaceSales).where(eq(marketplaceSales.id, id)).limit(1);
  return row;
}

export async function findSaleBySource(db: Executor, sourceId: string): Promise<SaleRow | undefined> {
  const [row] = await db.select().from(marketplaceSales).where(eq(marketplaceSales.source_id, sourceId)).limit(1);
  return row;
}

/** Serialises a refund with a payout run claiming the same sale. */
export async function lockSale(db: Executor, id: string): Promise<SaleRow | undefined> {
  const [row] = await db.select().from(marketplaceSales).where(eq(marketplaceSales.id, id)).for('update').limit(1);
  return row;
}

export async function setPayout(
  db: Executor,
  id: string,
  from: PayoutStatus[],
  set: Partial<typeof marketplaceSales.$inferInsert>,
): Promise<SaleRow | undefined> {
  const [row] = await db
    .update(marketplaceSales)
    .set(set)
    .where(and(eq(marketplaceSales.id, id), inArray(marketplaceSales.payout_status, from)))
    .returning();
  return row;
}

/** Rows a payout run works on, oldest first: owed, or claimed by a run that did not finish. */
export async function duePayouts(db: Executor, limit: number): Promise<SaleRow[]> {
  return db
    .select()
    .from(marketplaceSales)
    .where(sql`${marketplaceSales.payout_status} in ('pending', 'transferring')`)
    .orderBy(marketplaceSales.id)
    .limit(limit);
}

const vendorFilter = (vendorId?: string) => (vendorId ? eq(marketplaceSales.vendor_id, vendorId) : undefined);

/** Newest first (ids are ULIDs). */
export async function listSaleRows(db: Executor, vendorId: string | undefined, page: Page): Promise<SaleRow[]> {
  return db
    .select()
    .from(marketplaceSales)
    .where(vendorFilter(vendorId))
    .orderBy(desc(marketplaceSales.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countSales(db: Executor, vendorId?: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(marketplaceSales).where(vendorFilter(vendorId));
  return row.n;
}

export interface LedgerTotals {
  vendor_id: string | null;
  currency: string;
  sales: number;
  refunds: number;
  commission: number;
  vendor_share: number;
  paid_out: number;
  owed: number;
}

/**
 * Per vendor and currency, in cents: what was sold and refunded, the marketplace's commission and
 * the vendor's share (both net of refunds), what was transferred (net of reversals) and what is owed.
 */
export async function ledgerTotals(db: Executor, vendorId?: string): Promise<LedgerTotals[]> {
  const s = marketplaceSales;
  const sign = sql`case when ${s.kind} = 'refund' then -1 else 1 end`;
  const rows = await db
    .select({
      vendor_id: s.vendor_id,
      currency: s.currency,
      sales: sql<number>`coalesce(sum(${s.amount_cents}) filter (where ${s.kind} = 'sale'), 0)::int`,
      refunds: sql<number>`coalesce(sum(${s.amount_cents}) filter (where ${s.kind} = 'refund'), 0)::int`,
      commission: sql<number>`coalesce(sum(${sign} * ${s.commission_cents}), 0)::int`,
      vendor_share: sql<number>`coalesce(sum(${sign} * ${s.vendor_cents}), 0)::int`,
      paid_out: sql<number>`coalesce(sum(${sign} * ${s.vendor_cents}) filter (where ${s.payout_status} = 'paid'), 0)::int`,
      owed: sql<number>`coalesce(sum(${sign} * ${s.vendor_cents}) filter (where ${s.payout_status} in ('pending', 'transferring')), 0)::int`,
    })
    .from(s)
    .where(vendorFilter(vendorId))
    .groupBy(s.vendor_id, s.currency)
    .orderBy(s.vendor_id, s.currency);
  return rows.map((r) => ({
    ...r,
    sales: Number(r.sales),
    refunds: Number(r.refunds),
    commission: Number(r.commission),
    vendor_share: Number(r.vendor_share),
    paid_out: Number(r.paid_out),
    owed: Number(r.owed),
  }));
}

export type PayoutRunRow = typeof marketplacePayoutRuns.$inferSelect;

/**
 * Takes the run of a period: the first instance to ask gets it; later ones get nothing while its
 * lease holds or once it finished. An unfinished run whose lease ran out (its instance died) goes
 * to the one asking now, its attempts counted.
 */
export async function claimPayoutPeriod(
  db: Executor,
  run: { period_start: Date; owner: string; now: Date; lease_until: Date },
): Promise<PayoutRunRow | undefined> {
  const t = marketplacePayoutRuns;
  const [row] = await db
    .insert(t)
    .values({ period_start: run.period_start, owner: run.owner, lease_until: run.lease_until, started_at: run.now })
    .onConflictDoUpdate({
      target: t.period_start,
      set: {
        owner: sql`excluded.owner`,
        lease_until: sql`excluded.lease_until`,
        started_at: sql`excluded.started_at`,
        attempts: sql`${t.attempts} + 1`,
      },
      setWhere: sql`${t.finished_at} is null and ${t.lease_until} < excluded.started_at`,
    })
    .returning();
  return row;
}

/** Extends the lease while the run works; undefined once another instance took the run over. */
export async function renewPayoutRun(
  db: Executor,
  periodStart: Date,
  owner: string,
  leaseUntil: Date,
): Promise<PayoutRunRow | undefined> {
  const t = marketplacePayoutRuns;
  const [row] = await db
    .update(t)
    .set({ lease_until: leaseUntil })
    .where(and(eq(t.period_start, periodStart), eq(t.owner, owner), isNull(t.finished_at)))
    .returning();
  return row;
}

export async function finishPayoutRun(
  db: Executor,
  periodStart: Date,
  owner: string,
  done: { finished_at: Date; transferred: number; reversed: number; waiting: number },
): Promise<PayoutRunRow | undefined> {
  const t = marketplacePayoutRuns;
  const [row] = await db
    .update(t)
    .set(done)
    .where(and(eq(t.period_start, periodStart), eq(t.owner, owner), isNull(t.finished_at)))
    .returning();
  return row;
}

export async function listPayoutRuns(db: Executor, limit: number): Promise<PayoutRunRow[]> {
  return db.select().from(marketplacePayoutRuns).orderBy(desc(marketplacePayoutRuns.period_start)).limit(limit);
}
