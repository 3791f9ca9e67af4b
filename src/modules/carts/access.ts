import type { FastifyRequest } from 'fastify';
import type { CartAccess } from './service.ts';

/** Who asks about a cart: the signed-in customer (if any) and the channels of the publishable key. */
export function cartAccess(req: FastifyRequest): CartAccess {
  return { customerId: req.customer?.id ?? null, channelIds: req.store?.salesChannelIds ?? [] };
}
