import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { checkoutPage, paidPage, type PageSession } from './checkout-page.ts';
import { completeCheckout, effectiveStatus, findCheckoutOr404 } from './checkout.ts';
import { euros } from './item-json.ts';
import * as lq from './licence-queries.ts';
import * as q from './queries.ts';

async function pageSession(ctx: Ctx, row: lq.CheckoutRow, licence?: lq.LicenseRow): Promise<PageSession> {
  const [item] = await q.findItemsByMarketplaceIds(ctx.db, [row.marketplace_id], false);
  licence ??= row.license_id ? await lq.findLicenseById(ctx.db, row.license_id) : undefined;
  return {
    id: row.id,
    itemName: item?.name ?? row.marketplace_id,
    marketplaceId: row.marketplace_id,
    version: row.version,
    priceEur: euros(row.amount_cents),
    status: effectiveStatus(row, ctx.clock.now()),
    licenseKey: licence?.key ?? null,
  };
}

/** The test provider's checkout page; sessions of another provider are not its to show. */
export async function renderTestCheckout(ctx: Ctx, id: string): Promise<string> {
  const row = await findCheckoutOr404(ctx, id);
  if (row.provider !== 'test') throw errors.notFound(`Checkout session with id: ${id} was not found`);
  return checkoutPage(await pageSession(ctx, row));
}

/** The pay button: completes the session (idempotent) and shows the licence key. */
export async function payTestCheckout(ctx: Ctx, id: string): Promise<string> {
  const { session, licence } = await completeCheckout(ctx, id, { provider: 'test' });
  return paidPage(await pageSession(ctx, session, licence));
}
