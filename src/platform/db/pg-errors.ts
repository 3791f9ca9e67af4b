/** What PostgreSQL says about a failed statement (both drivers give these fields). */
export interface PgErrorFields {
  code?: string;
  constraint?: string;
  detail?: string;
}

/** The driver's error behind `err`: drizzle wraps it in `cause`; unwrapped errors carry the fields themselves. */
export function pgError(err: unknown): PgErrorFields {
  const e = err as (PgErrorFields & { cause?: PgErrorFields }) | null | undefined;
  const driver = typeof e?.cause?.code === 'string' ? e.cause : e;
  return { code: str(driver?.code), constraint: str(driver?.constraint), detail: str(driver?.detail) };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The PostgreSQL error code (SQLSTATE) of a driver error, if it is one. */
export const pgCode = (err: unknown): string | undefined => pgError(err).code;

/** A unique index refused the write (23505 unique_violation). */
export const isUniqueViolation = (err: unknown): boolean => pgCode(err) === '23505';

/**
 * Runs a write that a unique index guards: when the index refuses it, throws the error `taken`
 * gives instead (a handle or value already in use), or the original one when it gives none.
 */
export async function uniqueOr<T>(write: () => Promise<T>, taken: () => Error | undefined): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw (isUniqueViolation(err) && taken()) || err;
  }
}

/** serialization_failure and deadlock_detected: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);
export const isRetryable = (err: unknown): boolean => RETRYABLE.has(pgCode(err) ?? '');

/** Runs a whole transaction again (up to `attempts` times) when PostgreSQL aborted it for a retryable reason. */
export async function withTxRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      if (i >= attempts || !isRetryable(err)) throw err;
    }
  }
}

/** SQLSTATE classes and codes of a server that is gone or not accepting work right now. */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
];

/**
 * The database cannot be reached or is shutting down or starting up (a restart, a failover):
 * the request did nothing and may be retried, so the client gets 503, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; i++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
    e = e.cause as typeof e;
  }
  return false;
}
