import { ERROR_CODES, ERROR_STATUS, type ErrorCode, type ErrorType } from './error-codes.ts';

/**
 * Every error the API returns is an AppError rendered as `{ type, message, code }`; the status
 * comes from the type, as in Medusa v2. The codes and their messages are in error-codes.ts.
 */
export { ERROR_STATUS, type ErrorType };

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

type Table = typeof ERROR_CODES;
type Holes<S extends string> = S extends `${string}{${infer P}}${infer R}` ? P | Holes<R> : never;
/** The codes of one type, so `errors.notFound` only accepts not-found codes. */
export type CodeOf<T extends ErrorType> = { [C in ErrorCode]: Table[C]['type'] extends T ? C : never }[ErrorCode];
type Params = Record<string, string | number>;
/** A code's message templates: its one message, or each of its several. */
type TemplatesOf<C extends ErrorCode> = Table[C]['message'] extends readonly (infer M)[] ? M : Table[C]['message'];
/** The parameters of one template: none, or exactly its `{name}` holes. */
type ArgsOfTemplate<M> = M extends string
  ? [Holes<M>] extends [never]
    ? [params?: Record<string, never>]
    : [params: Record<Holes<M>, string | number>]
  : never;
/** The parameters a code's message needs: those of one of its templates. */
export type ArgsOf<C extends ErrorCode> = ArgsOfTemplate<TemplatesOf<C>>;

const isCode = (s: string): s is ErrorCode => Object.hasOwn(ERROR_CODES, s);
const HOLE = /\{(\w+)\}/g;
const fill = (template: string, params: Params = {}) =>
  template.replace(HOLE, (hole, name: string) => (name in params ? String(params[name]) : hole));
const holeNames = (template: string) => [...new Set(Array.from(template.matchAll(HOLE), (m) => m[1]))].sort().join();

/** Of a code's templates, the one whose holes are exactly the parameters given (else its first). */
function templateFor(message: string | readonly string[], params: Params = {}): string {
  if (typeof message === 'string') return message;
  const given = Object.keys(params).sort().join();
  return message.find((m) => holeNames(m) === given) ?? message[0];
}

/** The error of a code, its message filled from `params`. */
export function appError<C extends ErrorCode>(
  code: C,
  params?: ArgsOf<C>[0],
  opts: { headers?: Record<string, string> } = {},
): AppError {
  return errorOfCode(code, params, opts);
}

/** appError once its parameters are checked against the code (by appError's type, or by `helper`'s overloads). */
function errorOfCode(code: ErrorCode, params?: Params, opts: { headers?: Record<string, string> } = {}): AppError {
  const entry: { type: ErrorType; message: string | readonly string[] } = ERROR_CODES[code];
  const template = templateFor(entry.message, params);
  return new AppError(entry.type, fill(template, params), { code, headers: opts.headers });
}

/** Both forms of a helper: a code and its parameters, or a message and maybe a code. */
const errorOf =
  (type: ErrorType, legacyCode?: string) =>
  (first: string, second?: Params | string): AppError =>
    isCode(first)
      ? errorOfCode(first, typeof second === 'string' ? undefined : second)
      : new AppError(type, first, { code: typeof second === 'string' ? second : legacyCode });

/**
 * One helper per type. Given a code (`errors.notFound('webhook_not_found', { id })`) the message
 * comes from the table; the older form (a message, maybe a code) still works for modules not yet
 * moved to codes (`test/error-codes.test.ts` lists them).
 */
function helper<T extends ErrorType>(type: T, legacyCode?: string) {
  const made = errorOf(type, legacyCode);
  function make<C extends CodeOf<T>>(code: C, ...args: ArgsOf<C>): AppError;
  /** @deprecated give a code from ERROR_CODES instead of a message */
  function make(message: string, code?: string): AppError;
  function make(first: string, second?: Params | string): AppError {
    return made(first, second);
  }
  return make;
}

/** As `helper`; called bare it keeps the old generic message without a code, until its callers move. */
function helperWithDefault<T extends ErrorType>(type: T, message: string) {
  const make = errorOf(type);
  return ((first?: string, second?: Params | string) => make(first ?? message, second)) as ReturnType<
    typeof helper<T>
  > &
    (() => AppError);
}

export const errors = {
  invalid: helper('invalid_data'),
  notAllowed: helper('not_allowed'),
  unauthorized: helperWithDefault('unauthorized', 'Unauthorized'),
  forbidden: helperWithDefault('forbidden', 'You are not allowed to perform this action'),
  notFound: helper('not_found'),
  conflict: helper('conflict'),
  duplicate: helper('duplicate_error', 'invalid_request_error'),
  tooManyRequests: (retryAfterSeconds: number) =>
    appError('too_many_requests', undefined, {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    }),
};

/** The response schema every route declares for its error statuses. */
export const ErrorBody = {
  type: 'object',
  properties: { type: { type: 'string' }, message: { type: 'string' }, code: { type: 'string' } },
  required: ['type', 'message'],
} as const;
