import type { Ctx } from '../../platform/context.ts';
import { lowStockVariants, salesByDay, unreadNotifications } from './queries.ts';

export const DASHBOARD_DAYS = 30;
export const LOW_STOCK_THRESHOLD = 5;
const DAY_MS = 86_400_000;

/**
 * The admin panel's Home: orders and revenue per day for the last 30 days (today included, days
 * cut at the operator's UTC offset), the variants running low, and the unread notifications.
 */
export async function getDashboard(ctx: Ctx, offsetMinutes: number) {
  const now = ctx.clock.now().getTime();
  const localMidnight = Math.floor((now + offsetMinutes * 60_000) / DAY_MS) * DAY_MS - offsetMinutes * 60_000;
  const since = new Date(localMidnight - (DASHBOARD_DAYS - 1) * DAY_MS);
  const [sales, low_stock, unread_notifications] = await Promise.all([
    salesByDay(ctx.db, since, offsetMinutes),
    lowStockVariants(ctx.db, LOW_STOCK_THRESHOLD, 10),
    unreadNotifications(ctx.db),
  ]);
  return { days: DASHBOARD_DAYS, sales, low_stock, low_stock_threshold: LOW_STOCK_THRESHOLD, unread_notifications };
}
