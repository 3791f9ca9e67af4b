/**
 * The panel's one way to the API: same-origin fetch (the HTTP-only panel cookies go along by
 * themselves), the session's CSRF token on every write, errors as ApiError with the field they
 * name, and a 401 handed to the session so it can send the operator to the login page.
 */
import { fieldOf } from './fields.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  /** The request field the message names (`title`, `variants.0.prices`), when it names one. */
  readonly field: string | null;
  /** `field` names the input outright (a check made in the form); otherwise the message is read. */
  constructor(status: number, type: string, message: string, field?: string) {
    super(message);
    this.status = status;
    this.type = type;
    this.field = field ?? fieldOf(message);
  }
}

let csrfToken = '';
let onUnauthorized: () => void = () => {};

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export type Query = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

/** `?a=1&b[]=x&b[]=y`, skipping empty values (the API takes qs-style arrays). */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(`${key}[]`, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  /** A multipart body (file uploads) instead of JSON. */
  form?: FormData;
  query?: Query;
  signal?: AbortSignal;
  /** Do not treat a 401 as an expired login (the login form and the session probe). */
  quiet401?: boolean;
  /** Let the request finish after the page is gone (deferred deletes sent on leaving). */
  keepalive?: boolean;
  /** A header of the route's own (the emailed reset token as `authorization`). */
  headers?: Record<string, string>;
}

export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const method = opts.method ?? 'GET';
  // The panel's forms and figures work in minor units whatever AMOUNT_UNITS the server speaks.
  const headers: Record<string, string> = {
    accept: 'application/json',
    'x-emporium-amount-units': 'minor',
    ...opts.headers,
  };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path + queryString(opts.query), {
      method,
      headers,
      body: opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
      credentials: 'same-origin',
      signal: opts.signal,
      keepalive: opts.keepalive,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check your connection and try again.');
  }
  const text = await res.text();
  const data = text ? safeJson(text) : null;
  if (!res.ok) {
    if (res.status === 401 && !opts.quiet401) onUnauthorized();
    const body = (data ?? {}) as { type?: string; message?: string };
    throw new ApiError(res.status, body.type ?? 'unknown_error', body.message ?? `${res.status} ${res.statusText}`);
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 300) };
  }
}

/** For TanStack Query: do not retry what retrying cannot fix (4xx), do retry the rest twice. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}
