import type { Ctx } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import * as lq from './log-queries.ts';

/** GET /admin/marketplace/log: what `emporium marketplace audit --shop` compares with the whole log. */
export async function logState(ctx: Ctx, config: Config) {
  const url = config.federation?.url ?? null;
  const head = url ? await lq.findLogHead(ctx.db, url) : undefined;
  const served = url ? await lq.listServedArtifacts(ctx.db, url) : [];
  return {
    marketplace_url: url,
    tree_head: head
      ? {
          tree_size: head.tree_size,
          timestamp: head.timestamp,
          root_hash: head.root_hash,
          key_id: head.key_id,
          signature: head.signature,
        }
      : null,
    checked_at: head?.checked_at ?? null,
    refused_at: head?.refused_at ?? null,
    refused_reason: head?.refused_reason ?? null,
    served: served.map(({ marketplace_url: _, ...rest }) => rest),
  };
}
