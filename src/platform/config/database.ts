import { type Env, intVar, memorySize } from './env.ts';

/** What a small shop needs; PostgreSQL's own default (128MB) is zeroed at every open and resident for good. */
export const DEFAULT_PGLITE_SHARED_BUFFERS = '8MB';

/** The database, its replicas and Redis (docs/configuration.md "Database and Redis", "Read replicas"). */
export interface DatabaseConfig {
  /** When set, PostgreSQL through a pg pool; otherwise embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** Embedded database: PostgreSQL's `shared_buffers` (PGLITE_SHARED_BUFFERS, e.g. `8MB`): PGlite zeroes all of it at open, so all of it stays resident. */
  pgliteSharedBuffers: string;
  redisUrl?: string;
  /** Prefix of every Redis key this instance writes (several deployments, or test runs, may share one Redis). */
  redisPrefix: string;
  /** PostgreSQL: a request waiting longer than this for a connection fails with 503 instead of hanging. */
  databaseConnectTimeoutMs: number;
  /** DATABASE_READ_URL: PostgreSQL streaming replicas for catalog reads, admin lists and the dashboard. */
  databaseReadUrls: string[];
  /** READ_REPLICA_MAX_LAG_MS: a replica further behind leaves the rotation. */
  readReplicaMaxLagMs: number;
  /** How often each instance checks for tables whose planner statistics are stale (db/statistics.ts). */
  analyzeCheckMs: number;
}

export function databaseConfig(env: Env): DatabaseConfig {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteSharedBuffers: memorySize(env, 'PGLITE_SHARED_BUFFERS', DEFAULT_PGLITE_SHARED_BUFFERS),
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || 'emporium:',
    databaseConnectTimeoutMs: intVar(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3_000),
    databaseReadUrls: (env.DATABASE_READ_URL ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    readReplicaMaxLagMs: intVar(env, 'READ_REPLICA_MAX_LAG_MS', 1_000),
    analyzeCheckMs: Math.max(100, intVar(env, 'ANALYZE_CHECK_MS', 15_000)),
  };
}
