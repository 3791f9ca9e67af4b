import type { SQL } from 'drizzle-orm';
import { executor, type Ctx, type TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';

export interface Notification {
  id: string;
  type: string;
  title: string;
  message: string;
  data: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
}

export interface NotificationInput {
  type: string;
  title: string;
  message: string;
  data?: Record<string, unknown>;
  /** At most one notification per key: a second create with the same key does nothing. */
  dedupeKey?: string;
}

export type { NotificationFilters } from './queries.ts';

function toNotification(row: q.NotificationRow): Notification {
  const { dedupe_key: _key, ...rest } = row;
  return rest;
}

/** The stored row of a new notification. */
function notificationRow(ctx: Ctx, input: NotificationInput) {
  return {
    id: newId('noti'),
    type: input.type,
    title: input.title,
    message: input.message,
    data: input.data ?? {},
    dedupe_key: input.dedupeKey ?? null,
    created_at: ctx.clock.now(),
  };
}

/** The same as a write for the caller's statement, made only when `onlyIf` holds (db/one-statement.ts). */
export function notificationWrite(ctx: Ctx, input: NotificationInput, onlyIf?: SQL): SQL {
  return q.notificationInsert(notificationRow(ctx, input), onlyIf);
}

/**
 * The internal API other modules call (plugin update available, license expired, webhook
 * endpoint failing). Given a TxCtx, the notification commits or rolls back with the caller's change.
 */
export async function createNotification(ctx: Ctx | TxCtx, input: NotificationInput): Promise<void> {
  await q.insertNotificationOnce(executor(ctx), notificationRow(ctx, input));
}

export async function listNotifications(
  ctx: Ctx,
  filters: q.NotificationFilters,
  page: Page,
): Promise<{ notifications: Notification[]; count: number }> {
  // Medusa's filter convention: a single comma-separated value is a list.
  const type = filters.type?.flatMap((s) => s.split(',')).filter(Boolean);
  const f = { read: filters.read, type: type?.length ? type : undefined };
  const rows = page.limit === 0 ? [] : await q.listNotificationRows(ctx.db, f, page);
  return { notifications: rows.map(toNotification), count: await q.countNotifications(ctx.db, f) };
}

const notFound = (id: string) => errors.notFound('notification_not_found', { id });

export async function getNotification(ctx: Ctx, id: string): Promise<Notification> {
  const row = await q.findNotification(ctx.db, id);
  if (!row) throw notFound(id);
  return toNotification(row);
}

/** Idempotent: marking a read notification again keeps the time it was first read. */
export async function markRead(ctx: Ctx, id: string): Promise<Notification> {
  const row = await q.markNotificationRead(ctx.db, id, ctx.clock.now());
  if (!row) throw notFound(id);
  return toNotification(row);
}

export async function markAllRead(ctx: Ctx): Promise<{ updated: number }> {
  return { updated: await q.markAllNotificationsRead(ctx.db, ctx.clock.now()) };
}
