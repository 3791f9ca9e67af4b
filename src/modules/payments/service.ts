import type { Ctx, TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { getRegion } from '../regions/service.ts';
import { mutateCart, type CartAccess } from '../carts/service.ts';
import * as q from './queries.ts';
import { SYSTEM_PROVIDER, type PaymentCollectionView } from './schema.ts';

/** Providers a store may use; payment-provider plugins will add to this. */
const PROVIDERS = [SYSTEM_PROVIDER];

export async function listPaymentProviders(ctx: Ctx, regionId: string, page: Page) {
  if (!(await getRegion(ctx, regionId))) throw errors.notFound(`Region with id: ${regionId} was not found`);
  const all = PROVIDERS.map((id) => ({ id, is_enabled: true }));
  return { payment_providers: all.slice(page.offset, page.offset + page.limit), count: all.length, ...page };
}

/** Moves the collection (and its pending sessions) to the cart's current total and currency. */
export async function syncCollectionAmount(tctx: TxCtx, pc: PaymentCollectionView, amount: number, currency: string): Promise<PaymentCollectionView> {
  const inStep = (x: { amount: number; currency_code: string }) => x.amount === amount && x.currency_code === currency;
  if (inStep(pc) && pc.payment_sessions.every((s) => s.status !== 'pending' || inStep(s))) return pc;
  const now = tctx.clock.now();
  await q.updateCollection(tctx.tx, pc.id, { amount, currency_code: currency, updated_at: now });
  await q.updatePendingSessions(tctx.tx, pc.id, { amount, currency_code: currency, updated_at: now });
  const sessions = pc.payment_sessions.map((s) => (s.status === 'pending' ? { ...s, amount, currency_code: currency, updated_at: now } : s));
  return { ...pc, amount, currency_code: currency, updated_at: now, payment_sessions: sessions };
}

/** `POST /store/payment-collections`: the cart's collection, created on first call (Medusa returns an existing one). */
export async function createPaymentCollection(ctx: Ctx, cartId: string, access: CartAccess): Promise<PaymentCollectionView> {
  const cart = await mutateCart(ctx, cartId, access, async (tctx, row) => {
    const now = tctx.clock.now();
    await q.insertCollection(tctx.tx, {
      id: newId('pay_col'),
      cart_id: row.id,
      currency_code: row.currency_code,
      amount: 0, // set to the cart total by mutateCart's sync, with the rest of the cart
      status: 'not_paid',
      created_at: now,
      updated_at: now,
    });
  });
  return cart.payment_collection!;
}

/** `POST /store/payment-collections/{id}/payment-sessions`: replaces the collection's sessions with one for this provider. */
export async function createPaymentSession(
  ctx: Ctx,
  collectionId: string,
  input: { provider_id: string; data?: Record<string, unknown> },
  access: CartAccess,
): Promise<PaymentCollectionView> {
  const notFound = errors.notFound(`Payment collection with id: ${collectionId} was not found`);
  const found = await q.findCollection(ctx.db, collectionId);
  if (!found) throw notFound;
  if (!PROVIDERS.includes(input.provider_id)) throw errors.invalid(`Payment providers with ids ${input.provider_id} not found`);
  const cart = await mutateCart(
    ctx,
    found.cart_id,
    access,
    async (tctx, row) => {
      const now = tctx.clock.now();
      await q.deleteSessions(tctx.tx, collectionId);
      await q.insertSession(tctx.tx, {
        id: newId('payses'),
        payment_collection_id: collectionId,
        provider_id: input.provider_id,
        currency_code: row.currency_code,
        amount: 0, // set to the cart total by mutateCart's sync
        status: 'pending',
        data: input.data ?? {},
        created_at: now,
        updated_at: now,
      });
      await q.updateCollection(tctx.tx, collectionId, { status: 'awaiting', updated_at: now });
    },
    // A collection of a cart this shopper may not see is as unknown as a missing one.
    notFound,
  );
  return cart.payment_collection!;
}
