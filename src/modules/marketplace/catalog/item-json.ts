import type { ItemRow, VersionRow } from './queries.ts';

/** Cents (storage) to euros (API), e.g. 2999 → 29.99. */
export const euros = (cents: number): number => cents / 100;

export function downloadPath(marketplaceId: string, version: string): string {
  return `/store/marketplace/download/${marketplaceId}/${version}`;
}

/** What names and describes an item, first in every view of it. */
function itemIdentity(item: ItemRow) {
  return {
    id: item.id,
    marketplace_id: item.marketplace_id,
    vendor: item.vendor,
    name: item.name,
    type: item.type,
    description: item.description,
  };
}

/** A feed entry: the item with its newest version, which is what a shop installs by default. */
export function feedItem(item: ItemRow, latest: VersionRow) {
  return {
    ...itemIdentity(item),
    version: latest.version,
    price_eur: euros(item.price_cents),
    billing: item.billing,
    manifest: latest.manifest,
    download_url: downloadPath(item.marketplace_id, latest.version),
    sha256: latest.sha256,
    size: latest.size,
    published_at: latest.published_at,
  };
}

export function versionEntry(v: VersionRow, fallbackChangelog: string | null) {
  return {
    version: v.version,
    published_at: v.published_at,
    sha256: v.sha256,
    size: v.size,
    changelog_url: v.changelog_url ?? fallbackChangelog,
  };
}

/** The vendor's view: everything, unpublished items and signatures included. `versions` newest first. */
export function adminItem(item: ItemRow, versions: VersionRow[]) {
  // What shops see as the item's version: its newest approved one (under a staged rollout, only some shops).
  const approved = versions.find((v) => v.status === 'approved');
  return {
    ...itemIdentity(item),
    price_eur: euros(item.price_cents),
    billing: item.billing,
    changelog_url: item.changelog_url,
    published: item.published,
    unpublished_at: item.unpublished_at,
    version: approved?.version ?? null,
    sha256: approved?.sha256 ?? null,
    created_at: item.created_at,
    updated_at: item.updated_at,
    versions: versions.map((v) => ({
      id: v.id,
      version: v.version,
      sha256: v.sha256,
      size: v.size,
      signature: v.signature,
      key_id: v.key_id,
      changelog_url: v.changelog_url,
      published_at: v.published_at,
      manifest: v.manifest,
      status: v.status,
      review_reason: v.review_reason,
      reviewed_at: v.reviewed_at,
      review_checks: v.review_checks,
      rollout_percent: v.rollout_percent,
      rollout_halted_at: v.rollout_halted_at,
    })),
  };
}

export type AdminItem = ReturnType<typeof adminItem>;
