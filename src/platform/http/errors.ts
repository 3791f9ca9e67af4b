/**
 * The one error catalog. Every error the API returns is an AppError rendered as
 * `{ type, message, code? }`; the status comes from the type, as in Medusa v2.
 */
export const ERROR_STATUS = {
  invalid_data: 400,
  not_allowed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  duplicate_error: 422,
  too_many_requests: 429,
  unknown_error: 500,
  bad_gateway: 502,
  gateway_timeout: 504,
  service_unavailable: 503,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

/**
 * The type of a 4xx that arrives as a bare status (a framework error, a plugin's thrown status),
 * as Medusa's error types map them; any other 4xx is `invalid_data`.
 */
const STATUS_TYPE: Record<number, ErrorType> = {
  400: 'invalid_data',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'duplicate_error',
  429: 'too_many_requests',
};

export const errorTypeOfStatus = (status: number): ErrorType => STATUS_TYPE[status] ?? 'invalid_data';

export class AppError extends Error {
  readonly type: ErrorType;
  readonly code?: string;
  readonly headers?: Record<string, string>;
  constructor(type: ErrorType, message: string, opts: { code?: string; headers?: Record<string, string> } = {}) {
    super(message);
    this.type = type;
    this.code = opts.code;
    this.headers = opts.headers;
  }
  get status(): number {
    return ERROR_STATUS[this.type];
  }
  toJSON(): { type: ErrorType; message: string; code?: string } {
    return this.code
      ? { type: this.type, message: this.message, code: this.code }
      : { type: this.type, message: this.message };
  }
}

export const errors = {
  invalid: (message: string, code?: string) => new AppError('invalid_data', message, { code }),
  notAllowed: (message: string, code?: string) => new AppError('not_allowed', message, { code }),
  unauthorized: (message = 'Unauthorized') => new AppError('unauthorized', message),
  forbidden: (message = 'You are not allowed to perform this action') => new AppError('forbidden', message),
  notFound: (message: string) => new AppError('not_found', message),
  conflict: (message: string) => new AppError('conflict', message),
  duplicate: (message: string) => new AppError('duplicate_error', message, { code: 'invalid_request_error' }),
  tooManyRequests: (retryAfterSeconds: number) =>
    new AppError('too_many_requests', 'Too many requests, retry later', {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    }),
};

/** The response schema every route declares for its error statuses. */
export const ErrorBody = {
  type: 'object',
  properties: { type: { type: 'string' }, message: { type: 'string' }, code: { type: 'string' } },
  required: ['type', 'message'],
} as const;
