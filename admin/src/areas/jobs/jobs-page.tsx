import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Ok } from '../../api/types.ts';
import { Card, ConfirmButton, Empty, ErrorNote, Loading, Pager } from '../../components/ui.tsx';

import { dateTime } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { JobLine } from './job-progress.tsx';
import { cancelJob, isFinished, type Job, JOB_TYPES } from './jobs-api.ts';
import { useApi } from '../../lib/api-hooks.ts';

const LIMIT = 20;

/** Settings → Jobs: imports and exports, newest first, with progress and their files. */
export function JobsPage() {
  const [offset, setOffset] = useState(0);
  const list = useApi<Ok<'/admin/jobs'>>(
    ['jobs', 'list', offset],
    '/admin/jobs',
    { limit: LIMIT, offset },
    {
      placeholderData: keepPreviousData,
      refetchInterval: (q) =>
        q.state.data?.jobs.some((j) => !isFinished(j) && j.status !== 'awaiting_confirmation') ? 1500 : false,
    },
  );
  if (list.isPending) return <Loading />;
  if (list.error) return <ErrorNote error={list.error} />;
  const { jobs, count } = list.data;
  return (
    <Card title="Jobs">
      {jobs.length === 0 ? (
        <Empty>No imports or exports yet. Products, Orders and Customers have Import and Export buttons.</Empty>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Job</th>
              <th>Started</th>
              <th>Progress</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id}>
                <td>
                  {JOB_TYPES[j.type] ?? j.type}
                  <div className="muted mono">{j.id}</div>
                </td>
                <td>{dateTime(j.created_at)}</td>
                <td className="job-cell">
                  <JobLine job={j} />
                  {!isFinished(j) && <CancelJob job={j} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager offset={offset} limit={LIMIT} count={count} shown={jobs.length} onChange={setOffset} />
    </Card>
  );
}

/** Cancels a job that has not ended; a running import stops after the batch at hand. */
function CancelJob({ job }: { job: Job }) {
  const client = useQueryClient();
  const canWrite = useCan('jobs:write');
  const cancel = useMutation({
    mutationFn: () => cancelJob(job.id),
    onSettled: () => client.invalidateQueries({ queryKey: ['jobs'] }),
  });
  if (!canWrite) return null;
  return (
    <>
      <ConfirmButton
        small
        label="Cancel job"
        title={`Cancel ${JOB_TYPES[job.type] ?? job.type}?`}
        body="It stops after the batch at hand; what it already wrote stays."
        danger
        disabled={cancel.isPending}
        onConfirm={() => cancel.mutate()}
      />
      {cancel.error && <ErrorNote error={cancel.error} />}
    </>
  );
}
