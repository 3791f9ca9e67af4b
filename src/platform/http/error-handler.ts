import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, isRetryable, pgCode } from '../db/pg-errors.ts';
import { refusalOf } from '../db/refusals.ts';
import { AppError, ERROR_STATUS, errorTypeOfStatus } from './errors.ts';
import { validationMessage } from './validation-message.ts';

/**
 * SQLSTATEs a value from a request can still cause where no schema could tell: text not a number
 * (22P02), out of range (22003), too long (22001), a date PostgreSQL cannot read or hold (22007,
 * 22008), a NUL in text (22021), a value too large for an index (54000). The routes check for
 * these first; this is the backstop that keeps a missed case a 400, not a 500.
 */
const BAD_VALUE = new Set(['22P02', '22003', '22001', '22007', '22008', '22021', '54000']);

/** Maps anything thrown into an AppError, so every response has the `{ type, message }` shape. */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as FastifyError & { validation?: unknown[]; validationContext?: string; code?: string };
  if (e?.validation) return new AppError('invalid_data', validationMessage(e.validation as never, e.validationContext));
  if (e?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e instanceof SyntaxError) {
    return new AppError('invalid_data', `Malformed JSON in request body: ${e.message}`);
  }
  // PostgreSQL errors that bad input can still reach despite schemas (drizzle wraps them in `cause`).
  const code = pgCode(err);
  const refused = refusalOf(err);
  if (refused) return refused;
  if (code === '23505')
    return new AppError('duplicate_error', 'A record with these values already exists', {
      code: 'invalid_request_error',
    });
  if (code && BAD_VALUE.has(code)) return new AppError('invalid_data', 'Invalid value in request');
  // A deadlock or serialization failure rolled the whole transaction back: nothing was written,
  // and the same request sent again normally goes through.
  if (isRetryable(err))
    return new AppError('conflict', 'The request collided with a concurrent change and was not applied; send it again');
  if (isDatabaseUnavailable(err))
    return new AppError(
      'service_unavailable',
      'Temporarily unavailable (the database cannot be reached); retry shortly',
      {
        headers: { 'retry-after': '2' },
      },
    );
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) return new AppError(errorTypeOfStatus(status), e.message);
  return null;
}

export function errorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(err);
  if (!appError) {
    req.log.error({ err }, 'unhandled error');
    return reply
      .status(500)
      .send({ type: 'unknown_error', code: 'unknown_error', message: 'An unknown error occurred.' });
  }
  if (appError.status >= 500) req.log.error({ err }, appError.message);
  // The client is told to retry, but the operator should see how often writes collide.
  else if (isRetryable(err))
    req.log.warn({ err }, 'a transaction was rolled back by a deadlock or serialization failure');
  if (appError.headers) reply.headers(appError.headers);
  return reply.status(ERROR_STATUS[appError.type]).send(appError.toJSON());
}

export function notFoundHandler(req: FastifyRequest, reply: FastifyReply) {
  return reply
    .status(404)
    .send({ type: 'not_found', message: `Route ${req.method} ${req.url.split('?')[0]} not found` });
}
