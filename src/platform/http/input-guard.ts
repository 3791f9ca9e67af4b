import type { FastifyRequest } from 'fastify';
import { errors } from './errors.ts';

/** Deeper than this is no real payload (Medusa's metadata is flat); far below what overflows a stack. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Why this value cannot be accepted, or null. PostgreSQL refuses NUL in text and jsonb, so a NUL
 * reaching a query is a 500; deep nesting overflows recursive code (validators, serializers).
 * Walks without recursion, so the walk itself cannot overflow.
 */
export function unsafeInput(value: unknown, where: string): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) return `Invalid request (${where}): NUL characters are not allowed`;
    } else if (v !== null && typeof v === 'object' && !isOpaque(v)) {
      if (depth >= MAX_INPUT_DEPTH) return `Invalid request (${where}): nested deeper than ${MAX_INPUT_DEPTH} levels`;
      for (const [key, child] of Object.entries(v)) {
        if (key.includes('\0')) return `Invalid request (${where}): NUL characters are not allowed`;
        stack.push([child, depth + 1]);
      }
    }
  }
  return null;
}

/** Raw bodies (bytes, streams) are the route's to judge; parsed values (objects, arrays, params) are walked. */
function isOpaque(v: object): boolean {
  return ArrayBuffer.isView(v) || typeof (v as { pipe?: unknown }).pipe === 'function';
}

/**
 * `preValidation` hook of the whole app, so every route (plugin catch-alls too) refuses such
 * input as 400 `invalid_data` before its schema, its handler or the database sees it.
 */
export function rejectUnsafeInput(req: FastifyRequest, _reply: unknown, done: (err?: Error) => void): void {
  const problem = unsafeInput(req.params, 'path') ?? unsafeInput(req.query, 'query') ?? unsafeInput(req.body, 'body');
  done(problem ? errors.invalid('unsafe_input', { problem }) : undefined);
}
