import { randomFillSync } from 'node:crypto';
import { monotonicFactory, ulid } from 'ulid';

/**
 * ulid's own generator asks the system's CSPRNG for one byte per character (16 calls per id, a
 * few percent of a checkout's CPU); this takes the same CSPRNG's bytes from a pooled buffer.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
function prng(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++] / 256;
}

const monotonic = monotonicFactory(prng);

/** Medusa-style prefixed id (`prod_01J…`). ULIDs sort by creation time, so `ORDER BY id` is creation order. */
export function newId(prefix: string): string {
  return `${prefix}_${monotonic()}`;
}

/** A request's id (`x-request-id`): a ULID of its own. */
export const requestId = (): string => ulid(undefined, prng);
