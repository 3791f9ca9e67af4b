import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { Badge, ErrorNote } from '../../components/ui.tsx';
import { isFinished, type Job } from './jobs-api.ts';

/** A job's progress bar and files, polled every second until it ends. */
export function JobProgress({ id }: { id: string }) {
  const job = useQuery({
    queryKey: ['jobs', id],
    queryFn: ({ signal }) => api<{ job: Job }>(`/admin/jobs/${id}`, { signal }).then((r) => r.job),
    refetchInterval: (q) => (isFinished(q.state.data) ? false : 1000),
  });
  if (job.error) return <ErrorNote error={job.error} />;
  const j = job.data;
  if (!j) return <p className="muted">Starting…</p>;
  return <JobLine job={j} />;
}

/** What a job's progress counts. */
const UNITS: Record<string, string> = {
  product_import: 'rows',
  product_export: 'products',
  order_export: 'orders',
  customer_export: 'customers',
  inventory_item_export: 'inventory items',
};

/** An import's outcome in words: "2 created, 0 updated, 1 row left out". */
function outcome(job: Job): string | null {
  const r = job.result as { created?: number; updated?: number; rows_with_errors?: number } | null;
  if (job.type !== 'product_import' || job.status !== 'succeeded' || !r) return null;
  const left = r.rows_with_errors ?? 0;
  return `${r.created ?? 0} created, ${r.updated ?? 0} updated, ${left} ${left === 1 ? 'row' : 'rows'} left out`;
}

export function JobLine({ job }: { job: Job }) {
  const { done, total } = job.progress;
  const pct = total ? Math.round((100 * done) / total) : isFinished(job) ? 100 : 0;
  const unit = UNITS[job.type] ?? 'items';
  const counted = total || isFinished(job) ? `${done} of ${total} ${unit}` : 'waiting';
  return (
    <div className="job-line">
      <div className="job-head">
        <Badge value={job.status} /> <span className="muted">{counted}</span>
      </div>
      <progress className="job-bar" max={100} value={pct} aria-label={`Progress ${pct}%`}>
        {pct}%
      </progress>
      {outcome(job) && <span>{outcome(job)}</span>}
      {job.error && <p className="error-text">{job.error}</p>}
      {job.files.length > 0 && (
        <p className="job-files">
          {job.files.map((f) => (
            <a key={f.kind} className="btn btn-small" href={f.url} download={f.filename}>
              {f.kind === 'errors' ? 'Download error report' : 'Download CSV'}
            </a>
          ))}
        </p>
      )}
    </div>
  );
}
