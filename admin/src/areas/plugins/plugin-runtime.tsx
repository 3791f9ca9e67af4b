import { dateTime } from '../../lib/format.ts';
import { Card, ErrorNote, Loading } from '../../components/ui.tsx';
import type { Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** How the plugin's own process runs on the instance that answered (refreshed every 5 s). */
export function PluginRuntime({ id }: { id: string }) {
  const q = useApi<Ok<'/admin/plugins/{id}'>>(['plugin-runtime', id], `/admin/plugins/${id}`, undefined, {
    refetchInterval: 5_000,
  });
  const r = q.data?.plugin.runtime;
  return (
    <Card title="Process">
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorNote error={q.error} />
      ) : !r ? (
        <p className="muted">Its code has not run on this instance.</p>
      ) : (
        <dl className="kv">
          <dt>State</dt>
          <dd>{r.running ? `running (pid ${r.pid})` : 'stopped'}</dd>
          <dt>Calls</dt>
          <dd>
            {r.calls} ({r.errors} errors, {r.timeouts} past their deadline)
            {r.avg_ms !== null && `, ${r.avg_ms} ms each`}
          </dd>
          <dt>Memory</dt>
          <dd>{r.memory ? `${mb(r.memory.rss)} resident, ${mb(r.memory.heap_used)} heap` : 'unknown'}</dd>
          <dt>Restarts</dt>
          <dd>
            {r.restarts} ({r.crashes} crashes, {r.crashes_in_window} recently)
          </dd>
          {r.last_crash && (
            <>
              <dt>Last crash</dt>
              <dd>
                {dateTime(r.last_crash.at)}: {r.last_crash.reason}
              </dd>
            </>
          )}
        </dl>
      )}
    </Card>
  );
}
