import { monotonicFactory } from 'ulid';

const ulid = monotonicFactory();

/** Medusa-style prefixed id (`prod_01J…`). ULIDs sort by creation time, so `ORDER BY id` is creation order. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid()}`;
}
