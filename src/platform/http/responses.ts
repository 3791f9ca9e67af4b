import type { TSchema } from 'typebox';
import { ErrorBody } from './errors.ts';

/** Response map for a route: its 200 body plus the shared error shape for 4xx/5xx (drives OpenAPI too). */
export function ok<T extends TSchema>(body: T) {
  return { 200: body, '4xx': ErrorBody, '5xx': ErrorBody } as const;
}
