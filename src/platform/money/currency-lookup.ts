import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { rows } from '../db/database.ts';

/**
 * A route's `moneyCurrency` for bodies whose amounts carry no `currency_code`: the currency
 * column of the row `idOf(req)` names in `table` (a payment, an order, a region). Undefined
 * when there is no such row; the route's service then answers its own 404.
 */
export function currencyOfRow(
  table: 'payments' | 'orders' | 'regions',
  idOf: (req: FastifyRequest) => string | undefined,
): (req: FastifyRequest) => Promise<string | undefined> {
  return async (req) => {
    const id = idOf(req);
    if (!id) return undefined;
    const [row] = await rows<{ currency_code: string }>(
      req.ctx.db,
      sql`select currency_code from ${sql.identifier(table)} where id = ${id}`,
    );
    return row?.currency_code;
  };
}

export const paramId = (req: FastifyRequest) => (req.params as { id?: string }).id;
