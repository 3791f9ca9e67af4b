import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps, ts } from '../../platform/db/columns.ts';
import type { ApplicationMethodJson, RuleJson } from './shapes.ts';

export const campaigns = pgTable(
  'campaigns',
  {
    id: idColumn(),
    name: text('name').notNull(),
    campaign_identifier: text('campaign_identifier').notNull(),
    description: text('description'),
    starts_at: ts('starts_at'),
    ends_at: ts('ends_at'),
    budget_id: text('budget_id'),
    /** `spend` (an amount in `budget_currency_code`) or `usage` (orders); null: no budget. */
    budget_type: text('budget_type'),
    budget_limit: numeric('budget_limit'),
    /** Moved by the order-placing transaction, under the row's lock, never beyond the limit. */
    budget_used: numeric('budget_used').notNull().default('0'),
    budget_currency_code: text('budget_currency_code'),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('campaigns_identifier_idx').on(t.campaign_identifier).where(sql`deleted_at is null`)],
);

/**
 * A promotion with its application method and rules as JSON: they are always read and written
 * with it, and a cart read takes every promotion it may get in one statement.
 */
export const promotions = pgTable(
  'promotions',
  {
    id: idColumn(),
    code: text('code').notNull(),
    type: text('type').$type<'standard' | 'buyget'>().notNull(),
    status: text('status').$type<'draft' | 'active' | 'inactive'>().notNull(),
    is_automatic: boolean('is_automatic').notNull().default(false),
    is_tax_inclusive: boolean('is_tax_inclusive').notNull().default(false),
    campaign_id: text('campaign_id'),
    application_method: jsonb('application_method').$type<ApplicationMethodJson>().notNull(),
    rules: jsonb('rules').$type<RuleJson[]>().notNull(),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [
    uniqueIndex('promotions_code_idx').on(sql`lower(${t.code})`).where(sql`deleted_at is null`),
    index('promotions_automatic_idx').on(t.is_automatic).where(sql`deleted_at is null and status = 'active'`),
  ],
);

/** The codes a shopper applied to a cart (automatic promotions are found, not kept). */
export const cartPromotions = pgTable(
  'cart_promotions',
  {
    cart_id: text('cart_id').notNull(),
    promotion_id: text('promotion_id').notNull(),
    created_at: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.cart_id, t.promotion_id] })],
);

/**
 * A promotion used by a placed order, written in the order's transaction beside the campaign's
 * guarded budget update: `within_budget` is false when that update found no budget left, and the
 * check then refuses the whole order (promotions/budget.ts).
 */
export const promotionUsages = pgTable(
  'promotion_usages',
  {
    id: idColumn(),
    order_id: text('order_id').notNull(),
    promotion_id: text('promotion_id').notNull(),
    campaign_id: text('campaign_id'),
    code: text('code').notNull(),
    /** The discount it gave, without tax, in minor units (exact). */
    amount: numeric('amount').notNull(),
    within_budget: boolean('within_budget').notNull(),
    created_at: ts('created_at').notNull(),
  },
  (t) => [
    index('promotion_usages_promotion_idx').on(t.promotion_id),
    check('promotion_usages_within_budget', sql`within_budget`),
  ],
);
