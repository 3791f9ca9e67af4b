/** The test provider's hosted checkout: two tiny HTML pages, nothing loaded from elsewhere. */

/** Vendor-supplied text (item names) must not become markup on the marketplace's origin. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** No scripts, nothing external, forms only back to this origin. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}
.note{color:#666;font-size:.9rem}button{font-size:1.1rem;padding:.6rem 1.4rem;cursor:pointer}code{font-size:1.05rem;background:#f3f3f3;padding:.2rem .4rem}</style>
</head><body>${body}</body></html>`;
}

export interface PageSession {
  id: string;
  itemName: string;
  marketplaceId: string;
  version: string;
  priceEur: number;
  status: 'open' | 'paid' | 'expired';
  licenseKey: string | null;
}

const money = (eur: number) => `€${eur.toFixed(2)}`;

export function checkoutPage(s: PageSession): string {
  const heading = `<h1>${escapeHtml(s.itemName)}</h1><p>${escapeHtml(s.marketplaceId)} ${escapeHtml(s.version)} · ${money(s.priceEur)}</p>`;
  if (s.status === 'paid') return paidPage(s);
  if (s.status === 'expired')
    return page('Checkout expired', `${heading}<p>This checkout has expired. Start a new one from your shop.</p>`);
  const action = `/store/marketplace/checkout/test/${encodeURIComponent(s.id)}/pay`;
  return page(
    `Pay ${money(s.priceEur)}`,
    `${heading}<form method="post" action="${escapeHtml(action)}"><button type="submit">Pay ${money(s.priceEur)}</button></form>
<p class="note">Test payment provider: no money moves.</p>`,
  );
}

export function paidPage(s: PageSession): string {
  return page(
    'Paid',
    `<h1>Paid — license key <code>${escapeHtml(s.licenseKey ?? '')}</code></h1>
<p>${escapeHtml(s.itemName)} (${escapeHtml(s.marketplaceId)} ${escapeHtml(s.version)}). Your shop receives the license automatically; you may close this page.</p>`,
  );
}
