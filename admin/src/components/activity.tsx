import type { Item, Ok } from '../api/types.ts';

import { dateTime } from '../lib/format.ts';
import { useCan } from '../lib/session.tsx';
import { Card, Empty, ErrorNote, Loading } from './ui.tsx';
import { useApi } from '../lib/api-hooks.ts';

type Entry = Item<Ok<'/admin/audit-log'>['audit_entries']>;

const show = (v: unknown) =>
  v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** What an entry did, in a line: the route's verb and path, the fields sent, the watched values that moved. */
function describe(e: Entry): string {
  const moved = e.before_after.map((c) => `${c.column} ${show(c.before)} → ${show(c.after)}`);
  const fields = e.fields.filter((f) => !f.includes('.'));
  return [
    `${e.method} ${e.route.replace(/^\/admin/, '')}`,
    ...(moved.length ? moved : fields.length ? [fields.join(', ')] : []),
  ].join(' · ');
}

/**
 * The staff activity of one resource (an order, a product): its audit entries, newest first, from
 * `GET /admin/audit-log?resource_id=…`. Shown only to roles that may read the audit log.
 */
export function Activity({ resourceId, limit = 20 }: { resourceId: string; limit?: number }) {
  const canRead = useCan('audit:read');
  const entries = useApi<Ok<'/admin/audit-log'>>(
    ['audit-log', resourceId, limit],
    '/admin/audit-log',
    { resource_id: resourceId, limit, count: false },
    { enabled: canRead },
  );
  if (!canRead) return null;
  return (
    <Card title="Activity">
      {entries.isPending ? (
        <Loading />
      ) : entries.isError ? (
        <ErrorNote error={entries.error} />
      ) : entries.data.audit_entries.length === 0 ? (
        <Empty>No staff activity recorded.</Empty>
      ) : (
        <ol className="timeline">
          {entries.data.audit_entries.map((e) => (
            <li key={e.id}>
              <div>{describe(e)}</div>
              <small className="muted">
                {dateTime(e.created_at)} · {e.actor_role ?? e.actor_type} {e.actor_id ?? ''}
              </small>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}
