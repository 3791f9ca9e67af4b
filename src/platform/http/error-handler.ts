import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_STATUS, type ErrorType } from './errors.ts';
import { validationMessage } from './validation-message.ts';

const STATUS_TYPE: Record<number, ErrorType> = {
  400: 'invalid_data',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/** Maps anything thrown into an AppError, so every response has the `{ type, message }` shape. */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as FastifyError & { validation?: unknown[]; validationContext?: string; code?: string };
  if (e?.validation) return new AppError('invalid_data', validationMessage(e.validation as never, e.validationContext));
  if (e?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e instanceof SyntaxError) {
    return new AppError('invalid_data', `Malformed JSON in request body: ${e.message}`);
  }
  // PostgreSQL errors that bad input can still reach despite schemas (drizzle wraps them in `cause`).
  const pgCode = (e?.cause as { code?: string } | undefined)?.code ?? e?.code;
  if (pgCode === '23505') return new AppError('duplicate_error', 'A record with these values already exists', { code: 'invalid_request_error' });
  if (pgCode === '22P02' || pgCode === '22003' || pgCode === '22001') return new AppError('invalid_data', 'Invalid value in request');
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) return new AppError(STATUS_TYPE[status] ?? 'invalid_data', e.message);
  return null;
}

export function errorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(err);
  if (!appError) {
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ type: 'unknown_error', code: 'unknown_error', message: 'An unknown error occurred.' });
  }
  if (appError.status >= 500) req.log.error({ err }, appError.message);
  if (appError.headers) reply.headers(appError.headers);
  return reply.status(ERROR_STATUS[appError.type]).send(appError.toJSON());
}

export function notFoundHandler(req: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({ type: 'not_found', message: `Route ${req.method} ${req.url.split('?')[0]} not found` });
}
