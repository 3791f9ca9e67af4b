/**
 * Response types of the API, read from the generated `schema.d.ts` (`npm run gen:admin-types`), so
 * a field renamed on the server fails the panel's type check instead of showing blank at run time.
 */
import type { paths } from './schema';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The JSON body of a route's 200 answer: `Ok<'/admin/orders/{id}'>['order']`. */
export type Ok<P extends keyof paths, M extends Method = 'get'> =
  paths[P] extends Record<M, { responses: { 200: { content: { 'application/json': infer B } } } }>
    ? B
    : { error: `${P} answers no JSON 200 to ${M}` };

/** One element of a list: `Item<Ok<'/admin/orders'>['orders']>`. */
export type Item<A> = A extends readonly (infer E)[] ? E : never;
