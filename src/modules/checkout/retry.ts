/** The PostgreSQL error code of a driver error (drizzle wraps it in `cause`). */
export function pgCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  const code = e?.cause?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** serialization_failure and deadlock_detected: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01']);

/** Runs a whole transaction again (up to `attempts` times) when PostgreSQL aborted it for a retryable reason. */
export async function withTxRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      const code = pgCode(err);
      if (i >= attempts || !code || !RETRYABLE.has(code)) throw err;
    }
  }
}
