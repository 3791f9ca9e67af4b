import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, isRetryable, pgCode } from '../db/pg-errors.ts';
import { refusalOf } from '../db/refusals.ts';
import { ERROR_CODES } from './error-codes.ts';
import { AppError, appError, ERROR_STATUS, errorTypeOfStatus } from './errors.ts';
import { validationParts } from './validation-message.ts';

/**
 * SQLSTATEs a value from a request can still cause where no schema could tell: text not a number
 * (22P02), out of range (22003), too long (22001), a date PostgreSQL cannot read or hold (22007,
 * 22008), a NUL in text (22021), a value too large for an index (54000). The routes check for
 * these first; this is the backstop that keeps a missed case a 400, not a 500.
 */
const BAD_VALUE = new Set(['22P02', '22003', '22001', '22007', '22008', '22021', '54000']);

/** Fastify's refusals of a body, by its code: the same status and words, with ours beside them. */
type BodyRefusal = 'body_too_large' | 'unsupported_media_type' | 'content_length_mismatch' | 'empty_json_body';
const FRAMEWORK_CODES = new Map<string, BodyRefusal>([
  ['FST_ERR_CTP_BODY_TOO_LARGE', 'body_too_large'],
  ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'unsupported_media_type'],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'content_length_mismatch'],
  ['FST_ERR_CTP_EMPTY_JSON_BODY', 'empty_json_body'],
]);

/** Maps anything thrown into an AppError, so every response has the `{ type, message }` shape. */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as FastifyError;
  // A schema's refusal: Medusa's `invalid_data` with the field in the message, and one code for all.
  if (e?.validation) return appError('invalid_request', validationParts(e.validation, e.validationContext));
  if (e?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e instanceof SyntaxError) {
    return appError('malformed_json', { detail: e.message });
  }
  // PostgreSQL errors that bad input can still reach despite schemas (drizzle wraps them in `cause`).
  const code = pgCode(err);
  const refused = refusalOf(err);
  if (refused) return refused;
  if (code === '23505')
    return appError('invalid_request_error', { detail: 'A record with these values already exists' });
  if (code && BAD_VALUE.has(code)) return appError('invalid_value');
  // A deadlock or serialization failure rolled the whole transaction back: nothing was written,
  // and the same request sent again normally goes through.
  if (isRetryable(err)) return appError('write_conflict');
  if (isDatabaseUnavailable(err))
    return appError('database_unavailable', undefined, { headers: { 'retry-after': '2' } });
  const framework = FRAMEWORK_CODES.get(e?.code ?? '');
  if (framework && ERROR_CODES[framework].message === e.message) return appError(framework);
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
    .send(appError('route_not_found', { method: req.method, path: req.url.split('?')[0] }).toJSON());
}
