import type { Ctx } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import { errors } from '../../platform/http/errors.ts';
import * as pq from '../plugins/queries.ts';
import { marketplaceClient } from './client.ts';
import { instanceIdFor } from './instance-id.ts';

/**
 * The operator's review of an installed marketplace plugin, sent on their explicit action: the
 * marketplace id, the rating, the text and the instance token (which proves the install). Nothing
 * about the shop's customers, orders or catalog.
 */
export async function sendReview(
  ctx: Ctx,
  config: Config,
  input: { marketplace_id: string; rating: number; body?: string },
) {
  const client = marketplaceClient(config.federation);
  if (!client) throw errors.invalid('federation_not_connected');
  const row = (await pq.listAllPluginRows(ctx.db)).find((r) => r.marketplace_id === input.marketplace_id);
  if (row?.source !== 'federation')
    throw errors.invalid('federation_not_installed_from_marketplace', { id: input.marketplace_id });
  const body: Record<string, string | number> = {
    marketplace_id: input.marketplace_id,
    rating: input.rating,
    instance_id: await instanceIdFor(ctx, config.encryptionKey, client.url),
  };
  if (input.body !== undefined) body.body = input.body;
  return client.postJson<{ review: unknown }>('/store/marketplace/reviews', body);
}
