import type { AppError } from '../http/errors.ts';
import { pgError } from './pg-errors.ts';

/**
 * CHECK constraints that enforce a business rule under concurrency (a budget no two orders may
 * overrun, say): the module that owns the table names the constraint and the 4xx a violation
 * means, and the error handler answers it instead of a 500. The rule holds in the database; the
 * message belongs to the module.
 */
const refusals = new Map<string, () => AppError>();

export function refuseOnViolation(constraint: string, error: () => AppError): void {
  refusals.set(constraint, error);
}

/** The AppError of a violated registered constraint (23514), or null. */
export function refusalOf(err: unknown): AppError | null {
  const { code, constraint } = pgError(err);
  if (code !== '23514' || !constraint) return null;
  return refusals.get(constraint)?.() ?? null;
}
