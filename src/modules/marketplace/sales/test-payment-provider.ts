import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import * as catalog from '../catalog/queries.ts';
import { euros } from '../catalog/item-json.ts';
import * as lq from '../licenses/queries.ts';
import { completeCheckout, effectiveStatus, findCheckoutOr404 } from './checkout.ts';
import type { PaymentProvider } from './payment-provider.ts';
import type { CheckoutRow } from './queries.ts';
import { checkoutPage, paidPage, type PageSession } from './test-payment-page.ts';

/**
 * The built-in test payment provider, part of the product: a marketplace without Stripe sells
 * through it (refused in production unless MARKETPLACE_TEST_PAYMENTS=true). Its "hosted page"
 * is served by this marketplace (routes.ts) and its pay button completes the session without
 * any money moving.
 */
export function testPaymentProvider(publicUrl: string): PaymentProvider {
  return {
    id: 'test',
    createSession: async (input) => ({
      providerSessionId: input.checkoutId,
      url: `${publicUrl}/store/marketplace/checkout/test/${input.checkoutId}`,
    }),
  };
}

async function pageSession(ctx: Ctx, row: CheckoutRow, license?: lq.LicenseRow): Promise<PageSession> {
  const [item] = await catalog.findItemsByMarketplaceIds(ctx.db, [row.marketplace_id], false);
  license ??= row.license_id ? await lq.findLicenseById(ctx.db, row.license_id) : undefined;
  return {
    id: row.id,
    itemName: item?.name ?? row.marketplace_id,
    marketplaceId: row.marketplace_id,
    version: row.version,
    priceEur: euros(row.amount_cents),
    status: effectiveStatus(row, ctx.clock.now()),
    licenseKey: license?.key ?? null,
  };
}

/** The test provider's checkout page; sessions of another provider are not its to show. */
export async function renderTestCheckout(ctx: Ctx, id: string): Promise<string> {
  const row = await findCheckoutOr404(ctx, id);
  if (row.provider !== 'test') throw errors.notFound('marketplace_checkout_not_found', { id });
  return checkoutPage(await pageSession(ctx, row));
}

/** The pay button: completes the session (idempotent) and shows the license key. */
export async function payTestCheckout(ctx: Ctx, id: string): Promise<string> {
  const { session, license } = await completeCheckout(ctx, id, { provider: 'test' });
  return paidPage(await pageSession(ctx, session, license));
}
