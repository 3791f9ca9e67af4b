import type { FastifyReply, FastifyRequest } from 'fastify';
import { fieldsCut } from '../../platform/http/fields-hook.ts';
import type { StoreScope } from '../../platform/http/types.ts';
import { sendJsonText } from './json-reply.ts';

/**
 * A store answer that shows no stock (categories and collections, with their products when
 * `fields` asks), kept whole in the listing cache (store-cache.ts) under its URL and the key's
 * channels: the home page asks for every category with its products on every visit, and building
 * and serializing those thousand summaries again was most of its cost. A miss builds the answer
 * and serializes it with the route's own response schema (the bytes Fastify would send); the text
 * then goes through the rest of the store's hooks like any answer (`fields` shaping included).
 * Without a listing cache (outside the store scope) the answer is built and returned as usual.
 */
export async function sendKeptListing<T>(
  req: FastifyRequest & { store?: StoreScope | null },
  reply: FastifyReply,
  build: () => Promise<T>,
): Promise<T | undefined> {
  const listing = req.ctx.storeListing;
  if (!listing) return build();
  const key = JSON.stringify(['answer', req.url, req.store?.salesChannelIds ?? [], req.ctx.amountUnits ?? 'minor']);
  const now = listing.current();
  const version = typeof now === 'number' ? now : await now;
  const body = await listing.shared(key, version, async () => {
    const text = reply.serialize(await build());
    return Buffer.isBuffer(text) ? text : Buffer.from(typeof text === 'string' ? text : new Uint8Array(text));
  });
  // Sent here, so the handler resolves with nothing (as the product routes do). As the kept bytes
  // when no `fields` cut applies (the home page's half-megabyte category tree, decoded to text and
  // encoded again on every visit, cost about a tenth of the server's time under 10 shoppers); as text when the `fields`
  // shaping must read it, as it reads any answer.
  sendJsonText(reply, fieldsCut(req) ? body.toString('utf8') : body);
  return undefined;
}
