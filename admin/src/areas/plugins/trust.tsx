import { useQueries } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { Badge } from '../../components/ui.tsx';
import type { Entry } from '../marketplace/actions.tsx';
import type { Plugin } from './types.ts';

/** What the marketplace's listing says of an installed plugin: its rating. */
export interface Listing {
  rating_average: number | null;
  rating_count: number;
}

/**
 * The listing of each plugin installed from the marketplace (the same query, and cache, as the
 * marketplace's item page), by plugin id. A local plugin has none; an unreachable marketplace
 * leaves the rating out, nothing else.
 */
export function useListings(plugins: Plugin[]): Map<string, Listing | 'unknown'> {
  const federated = plugins.filter((p) => p.source === 'federation');
  const results = useQueries({
    queries: federated.map((p) => ({
      queryKey: ['marketplace', 'item', p.marketplace_id],
      queryFn: ({ signal }) => api<{ product: Entry }>(`/admin/marketplace/feed/${p.marketplace_id}`, { signal }),
      staleTime: 5 * 60_000,
      retry: false,
    })),
  });
  const out = new Map<string, Listing | 'unknown'>();
  federated.forEach((p, i) => {
    const product = results[i]?.data?.product;
    out.set(
      p.id,
      product ? { rating_average: product.rating_average ?? null, rating_count: product.rating_count ?? 0 } : 'unknown',
    );
  });
  return out;
}

/** "★ 4.3 (12 ratings)", "no ratings yet", or nothing for a local plugin. */
export function RatingCell({ listing }: { listing: Listing | 'unknown' | undefined }) {
  if (!listing) return <span className="muted">local</span>;
  if (listing === 'unknown') return <span className="muted">—</span>;
  if (!listing.rating_count || listing.rating_average === null) return <span className="muted">no ratings yet</span>;
  const n = listing.rating_count;
  return (
    <span role="img" aria-label={`rated ${listing.rating_average} of 5 by ${n} ${n === 1 ? 'shop' : 'shops'}`}>
      ★ {listing.rating_average.toFixed(1)} <span className="muted">({n})</span>
    </span>
  );
}

/**
 * The signed revocation list's verdict on the installed version: `critical` (the shop stopped
 * it) or `warning` (it keeps running), with the marketplace's reason.
 */
export function RevocationNote({ p }: { p: Pick<Plugin, 'revocation'> }) {
  const r = p.revocation;
  if (!r) return null;
  return (
    <div className={`note ${r.severity === 'critical' ? 'note-error' : 'note-warn'}`} role="status">
      <Badge value={r.severity}>revoked · {r.severity}</Badge> {r.reason}
    </div>
  );
}
