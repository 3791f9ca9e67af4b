import type { Ctx } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import { previewRights } from '../../plugin-package/permissions.ts';
import { compareVersions } from '../../plugin-package/versions.ts';
import {
  installStates,
  listLocalPackages,
  type InstallState,
  type LocalPackage,
  type LocalPackageProblem,
} from '../plugins/service.ts';
import { errors } from '../../platform/http/errors.ts';
import { MarketplaceError, marketplaceClient } from './client.ts';
import { instanceIdFor } from './instance-id.ts';

export interface AdminFeedQuery {
  type?: string;
  search?: string;
  page?: number;
  per_page?: number;
}

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

/** The marketplace's fields are passed through as they come; these are the ones the shop relies on. */
type RemoteItem = Record<string, unknown> & {
  id: string;
  marketplace_id: string;
  name: string;
  type: string;
  version: string;
  price_eur: number;
};

interface RemoteFeed {
  products?: RemoteItem[];
  count?: number;
  limit?: number;
  offset?: number;
}

function withState<T extends object>(item: T, state: InstallState | undefined) {
  const rights = previewRights((item as { manifest?: unknown }).manifest);
  return {
    ...item,
    // What the plugin asks for, shown before install (an old manifest: the legacy rights, flagged).
    permissions: rights?.permissions ?? null,
    permissions_declared: rights ? rights.declared : null,
    plugin_id: state?.plugin_id ?? null,
    installed_version: state?.installed_version ?? null,
    status: state?.status ?? null,
    // The installed update crash-looped and was rolled back (from, to, reason, at).
    rollback: state?.rollback ?? null,
  };
}

/** The newest local package per item, shaped like a marketplace feed entry (free, no download URL). */
function localItem(p: LocalPackage) {
  const m = p.pkg.manifest;
  return {
    id: p.marketplaceId,
    marketplace_id: p.marketplaceId,
    vendor: m.vendor,
    name: m.name,
    type: m.type,
    description: m.description ?? '',
    version: m.version,
    price_eur: 0,
    manifest: m,
    download_url: null,
    sha256: p.pkg.sha256,
    size: p.pkg.size,
    published_at: p.modifiedAt,
    source: 'local',
  };
}

async function localFeed(ctx: Ctx, config: Config, query: AdminFeedQuery, limit: number, offset: number) {
  const newest = new Map<string, LocalPackage>();
  const problems: LocalPackageProblem[] = [];
  for (const p of await listLocalPackages(config.pluginsDir, ctx.log, problems)) {
    const seen = newest.get(p.marketplaceId);
    if (!seen || compareVersions(p.pkg.manifest.version, seen.pkg.manifest.version) > 0) newest.set(p.marketplaceId, p);
  }
  const search = query.search?.trim().toLowerCase();
  const items = [...newest.values()]
    .map(localItem)
    .filter((i) => !query.type || i.type === query.type)
    .filter((i) => !search || [i.name, i.marketplace_id, i.description].some((s) => s.toLowerCase().includes(search)));
  const local_errors = problems.map((p) => ({ file: p.file, marketplace_id: p.marketplaceId, error: p.error }));
  return { items: items.slice(offset, offset + limit), count: items.length, local_errors };
}

/**
 * The admin's marketplace view: the federated marketplace's feed (or, unfederated, the packages
 * in PLUGINS_DIR) with this shop's install state on every entry. Only the filters go out.
 * Marketplace down → 502, the rest of the admin keeps working.
 */
export async function adminFeed(ctx: Ctx, config: Config, query: AdminFeedQuery) {
  const limit = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const offset = ((query.page ?? 1) - 1) * limit;
  const client = marketplaceClient(config.federation);
  const states = await installStates(ctx);
  if (!client) {
    const { items, count, local_errors } = await localFeed(ctx, config, query, limit, offset);
    return {
      products: items.map((i) => withState(i, states.get(i.marketplace_id))),
      count,
      limit,
      offset,
      local_errors,
    };
  }
  const remote = await client.getJson<RemoteFeed>('/store/marketplace/feed', {
    type: query.type,
    search: query.search,
    page: query.page === undefined ? undefined : String(query.page),
    per_page: String(limit),
    // Places this shop in or out of staged rollouts; the same token licences already carry.
    instance_id: await instanceIdFor(ctx, config.encryptionKey, client.url),
  });
  const products = (remote.products ?? []).map((p) =>
    withState({ ...p, source: 'federation' }, states.get(p.marketplace_id)),
  );
  return {
    products,
    count: remote.count ?? products.length,
    limit: remote.limit ?? limit,
    offset: remote.offset ?? offset,
  };
}

/**
 * One item with its full description and every version (newest first) and this shop's install
 * state: from the marketplace, or unfederated from the packages in PLUGINS_DIR. Unknown → 404.
 */
export async function adminFeedItem(ctx: Ctx, config: Config, marketplaceId: string) {
  const client = marketplaceClient(config.federation);
  const state = (await installStates(ctx)).get(marketplaceId);
  if (!client) {
    const versions = (await listLocalPackages(config.pluginsDir, ctx.log))
      .filter((p) => p.marketplaceId === marketplaceId)
      .sort((a, b) => compareVersions(b.pkg.manifest.version, a.pkg.manifest.version));
    if (!versions.length) throw errors.notFound('federation_plugin_not_in_folder', { id: marketplaceId });
    const listed = versions.map((p) => ({
      version: p.pkg.manifest.version,
      published_at: p.modifiedAt,
      sha256: p.pkg.sha256,
      changelog_url: null,
    }));
    return { product: withState({ ...localItem(versions[0]), versions: listed }, state) };
  }
  try {
    const remote = await client.getJson<{
      product: RemoteItem & {
        description: string | null;
        versions: { version: string; published_at: string; changelog_url: string | null }[];
      };
    }>(`/store/marketplace/feed/${marketplaceId}`, {
      instance_id: await instanceIdFor(ctx, config.encryptionKey, client.url),
    });
    return { product: withState({ ...remote.product, source: 'federation' }, state) };
  } catch (err) {
    if (err instanceof MarketplaceError && err.upstreamStatus === 404)
      throw errors.notFound('federation_plugin_not_in_marketplace', { id: marketplaceId });
    throw err;
  }
}
