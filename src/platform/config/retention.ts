import { type Env, intVar } from './env.ts';

/** How long recorded history is kept (docs/configuration.md "Events, deliveries and jobs"); 0 keeps it. */
export interface RetentionConfig {
  /** Dispatched outbox events older than this many days are deleted (events/outbox-retention.ts); 0 keeps them. */
  outboxRetentionDays: number;
  /** Audit log entries older than this many days are deleted (modules/audit/retention.ts); 0 keeps them. */
  auditRetentionDays: number;
  /** Files of background jobs (import uploads, exports, error reports) are deleted this many days after the job ended (bulk/file-retention.ts); 0 keeps them. */
  jobFilesRetentionDays: number;
}

export function retentionConfig(env: Env): RetentionConfig {
  return {
    outboxRetentionDays: intVar(env, 'OUTBOX_RETENTION_DAYS', 7),
    auditRetentionDays: intVar(env, 'AUDIT_RETENTION_DAYS', 365),
    jobFilesRetentionDays: intVar(env, 'JOB_FILES_RETENTION_DAYS', 7),
  };
}
