import type { FastifyRequest } from 'fastify';

/**
 * `preValidation` of actions whose body fields are all optional: a POST sent without any body
 * (curl -X POST, Medusa's SDK on some actions) means `{}`, so the body schema still applies.
 */
export async function emptyBodyIsObject(req: FastifyRequest): Promise<void> {
  req.body ??= {};
}
