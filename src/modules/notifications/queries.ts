import { preparedRows } from '../../platform/db/prepared.ts';
import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { notifications } from './tables.ts';

export type NotificationRow = typeof notifications.$inferSelect;

export interface NotificationFilters {
  read?: boolean;
  type?: string[];
}

function matching(f: NotificationFilters): SQL | undefined {
  return and(
    f.read === undefined ? undefined : f.read ? isNotNull(notifications.read_at) : isNull(notifications.read_at),
    f.type ? inArray(notifications.type, f.type) : undefined,
  );
}

/** Unread first, then newest first; spelled exactly as notifications_listing_idx so the index serves it. */
const LISTING_ORDER = [
  sql`(${notifications.read_at} is null) desc`,
  sql`${notifications.created_at} desc nulls last`,
  sql`${notifications.id} desc nulls last`,
];

export async function listNotificationRows(
  db: Executor,
  filters: NotificationFilters,
  page: Page,
): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(matching(filters))
    .orderBy(...LISTING_ORDER)
    .limit(page.limit)
    .offset(page.offset);
}

export async function countNotifications(db: Executor, filters: NotificationFilters): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(notifications).where(matching(filters));
  return row.n;
}

export async function findNotification(db: Executor, id: string): Promise<NotificationRow | undefined> {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id)).limit(1);
  return row;
}

/** Inserts unless a notification with the same dedupe key exists (then nothing happens). */
/**
 * A notification as one write for a caller's statement (db/one-statement.ts), made only when
 * `onlyIf` (an SQL condition, which may read an earlier part) holds; once per dedupe key.
 */
export function notificationInsert(row: typeof notifications.$inferInsert, onlyIf: SQL = sql`true`): SQL {
  return sql`insert into notifications (id, type, title, message, data, dedupe_key, created_at)
    select ${row.id}, ${row.type}, ${row.title}, ${row.message}, ${JSON.stringify(row.data ?? {})}::jsonb, ${row.dedupe_key ?? null},
      ${row.created_at.toISOString()}::timestamptz
    where ${onlyIf}
    on conflict (dedupe_key) do nothing`;
}

export async function insertNotificationOnce(db: Executor, row: typeof notifications.$inferInsert): Promise<void> {
  // Prepared: a shop without an email provider records its daily "not sent" notice on every order.
  await preparedRows(
    db,
    db.insert(notifications).values(row).onConflictDoNothing({ target: notifications.dedupe_key }).getSQL(),
  );
}

/** Marks one read; a notification already read keeps its first read_at. */
export async function markNotificationRead(db: Executor, id: string, now: Date): Promise<NotificationRow | undefined> {
  const [row] = await db
    .update(notifications)
    .set({ read_at: sql`coalesce(${notifications.read_at}, ${now.toISOString()}::timestamptz)` })
    .where(eq(notifications.id, id))
    .returning();
  return row;
}

export async function markAllNotificationsRead(db: Executor, now: Date): Promise<number> {
  const updated = await db
    .update(notifications)
    .set({ read_at: now })
    .where(isNull(notifications.read_at))
    .returning({ id: notifications.id });
  return updated.length;
}
