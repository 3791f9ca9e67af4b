import type { FastifyRequest } from 'fastify';
import type { CartAccess } from './service.ts';

/** Who asks about a cart: the signed-in customer (if any) and the channels of the publishable key (always a key's). */
export function cartAccess(req: FastifyRequest): CartAccess & { channelIds: string[] } {
  return { customerId: req.customer?.id ?? null, channelIds: req.store?.salesChannelIds ?? [] };
}
