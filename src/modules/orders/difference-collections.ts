import type { Ctx, TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Providers } from '../../platform/providers.ts';
import * as ledger from '../payments/ledger.ts';
import type { AdminPaymentCollectionView } from '../payments/ledger-schema.ts';
import { callPaymentProvider } from '../payments/provider-calls.ts';
import { offeredProviders } from '../payments/providers.ts';
import * as pq from '../payments/queries.ts';
import { SYSTEM_PROVIDER } from '../payments/schema.ts';
import { sessionStatus } from '../payments/session-status.ts';
import { afterCapture } from './payment-actions.ts';
import { onLockedOrder, orderCanceled } from './desk.ts';
import { orderDetail } from './desk-view.ts';
import type { AdminOrderView } from './desk-schema.ts';
import { getOrder } from './listing.ts';
import type { OrderRow } from './queries.ts';
import { jsonObjectOf } from '../../platform/json.ts';

/**
 * A positive `pending_difference` after the sale (an edit, exchange or claim confirmed, a draft
 * converted) is a payment collection of the order that the shopper pays, as in Medusa
 * (`createOrUpdateOrderPaymentCollectionWorkflow`): one `not_paid` collection per order follows
 * the difference. The operator may open one (`POST /admin/payment-collections`) or mark it paid
 * (`/mark-as-paid`: a manual payment captured at once); the shopper pays it through a payment
 * session of the region's providers and authorizes it, then the desk captures it like any payment.
 */

export const collectionNotFound = (id: string) => errors.notFound('payment_collection_not_found', { id });

async function collectionView(tctx: TxCtx, order: OrderRow, id: string): Promise<AdminPaymentCollectionView> {
  const pc = (await orderDetail(tctx.tx, order)).payment_collections.find((c) => c.id === id);
  if (!pc) throw collectionNotFound(id);
  return pc;
}

/**
 * What the shopper still has to pay: the pending difference less what payments already hold and
 * the desk has yet to capture (an order placed and not captured owes nothing new).
 */
async function pending(tctx: TxCtx, order: OrderRow): Promise<number> {
  const held = (await ledger.lockOrderPayments(tctx, order.id)).reduce((s, p) => s + ledger.capturable(p), 0);
  return (await orderDetail(tctx.tx, order)).summary.pending_difference - held;
}

async function openCollection(tctx: TxCtx, order: OrderRow, amount: number): Promise<string> {
  const now = tctx.clock.now();
  const id = newId('pay_col');
  await pq.insertCollection(tctx.tx, {
    id,
    cart_id: null,
    order_id: order.id,
    currency_code: order.currency_code,
    amount,
    status: 'not_paid',
    created_at: now,
    updated_at: now,
  });
  return id;
}

/**
 * After a confirmed change, under the order lock: the order's unpaid collection follows what is
 * owed (created, resized, or canceled once nothing is owed).
 */
export async function followDifference(tctx: TxCtx, order: OrderRow): Promise<void> {
  const owed = await pending(tctx, order);
  const unpaid = (await pq.listOrderCollections(tctx.tx, order.id)).find((c) => c.status === 'not_paid');
  const now = tctx.clock.now();
  if (owed > 0 && unpaid) await pq.updateCollection(tctx.tx, unpaid.id, { amount: owed, updated_at: now });
  else if (owed > 0) await openCollection(tctx, order, owed);
  else if (unpaid) await pq.updateCollection(tctx.tx, unpaid.id, { status: 'canceled', updated_at: now });
}

/** `POST /admin/payment-collections { order_id, amount }`: never more than the order still owes. */
export function createOrderCollection(
  ctx: Ctx,
  input: { order_id: string; amount: number },
): Promise<AdminPaymentCollectionView> {
  return onLockedOrder(ctx, input.order_id, async (tctx, order) => {
    if (order.status === 'canceled') throw orderCanceled(order.id);
    const owed = await pending(tctx, order);
    if (input.amount > owed) throw errors.notAllowed('payment_collection_too_large', { amount: Math.max(owed, 0) });
    return collectionView(tctx, order, await openCollection(tctx, order, input.amount));
  });
}

async function lockedCollection(tctx: TxCtx, order: OrderRow, id: string): Promise<pq.CollectionRow> {
  const pc = (await pq.listOrderCollections(tctx.tx, order.id)).find((c) => c.id === id);
  if (!pc) throw collectionNotFound(id);
  return pc;
}

/** A payment of the collection, authorized for its amount (its session chosen and authorized). */
async function authorizedPayment(
  tctx: TxCtx,
  order: OrderRow,
  pc: pq.CollectionRow,
  session: { id: string; provider_id: string; data: Record<string, unknown> },
): Promise<ledger.PaymentRow> {
  const now = tctx.clock.now();
  await pq.updateSession(tctx.tx, session.id, { status: 'authorized', data: session.data, updated_at: now });
  await pq.updateCollection(tctx.tx, pc.id, { status: 'authorized', updated_at: now });
  const id = newId('pay');
  await pq.insertPaymentRow(tctx.tx, {
    id,
    order_id: order.id,
    payment_collection_id: pc.id,
    payment_session_id: session.id,
    provider_id: session.provider_id,
    amount: pc.amount,
    currency_code: pc.currency_code,
    status: 'authorized',
    captured_amount: 0,
    refunded_amount: 0,
    captured_at: null,
    canceled_at: null,
    data: session.data,
    created_at: now,
    updated_at: now,
  });
  return (await ledger.lockOrderPayments(tctx, order.id)).find((p) => p.id === id)!;
}

/**
 * `POST /admin/payment-collections/{id}/mark-as-paid { order_id }`: the shopper paid outside the
 * shop; a manual payment of the whole amount is authorized and captured at once.
 */
export function markCollectionPaid(ctx: Ctx, id: string, orderId: string): Promise<AdminPaymentCollectionView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    if (order.status === 'canceled') throw orderCanceled(order.id);
    const pc = await lockedCollection(tctx, order, id);
    if (pc.status !== 'not_paid')
      throw errors.notAllowed('payment_collection_not_payable', {
        detail: "Can only mark 'not_paid' payment collection as paid",
      });
    const now = tctx.clock.now();
    const session = { id: newId('payses'), provider_id: SYSTEM_PROVIDER, data: {} };
    await pq.insertSession(tctx.tx, {
      ...session,
      payment_collection_id: pc.id,
      currency_code: pc.currency_code,
      amount: pc.amount,
      status: 'pending',
      created_at: now,
      updated_at: now,
    });
    const payment = await authorizedPayment(tctx, order, pc, session);
    await ledger.capture(tctx, payment);
    await afterCapture(tctx, order);
    return collectionView(tctx, order, pc.id);
  });
}

/**
 * A provider's webhook says the shopper authorized (or paid) the session of an order's collection,
 * and the storefront never called authorize (the tab closed after paying): the payment is recorded
 * as authorize records it, if the session is still the collection's and for what it asks. Its id,
 * or undefined when the collection is no order's or moved on (the provider keeps the money: the
 * desk settles it in the processor's dashboard).
 */
export async function authorizedByProvider(
  ctx: Ctx,
  sessionId: string,
  collectionId: string,
): Promise<string | undefined> {
  const found = await pq.findCollection(ctx.db, collectionId);
  // A cart's collection (placed or not) is checkout's: only an order's own difference is paid here.
  if (!found?.order_id || found.cart_id) return undefined;
  return withCollectionOrder(ctx, collectionId, async (tctx, order, pc) => {
    const [current] = await pq.listSessions(tctx.tx, pc.id);
    if (pc.status !== 'awaiting' || current?.id !== sessionId || current.amount !== pc.amount) {
      tctx.log.warn(
        { collection: pc.id, session: sessionId, status: pc.status },
        "a provider reported a payment of an order's collection that no longer asks for it",
      );
      return undefined;
    }
    return (await authorizedPayment(tctx, order, pc, current)).id;
  });
}

/** `DELETE /admin/payment-collections/{id}`: only one nothing was paid into. */
export function cancelOrderCollection(ctx: Ctx, id: string): Promise<void> {
  return withCollectionOrder(ctx, id, async (tctx, _order, pc) => {
    if (pc.status !== 'not_paid' && pc.status !== 'awaiting' && pc.status !== 'canceled')
      throw errors.notAllowed('payment_collection_not_payable', {
        detail: `Payment collection ${id} has payments and cannot be deleted`,
      });
    await pq.updateCollection(tctx.tx, pc.id, { status: 'canceled', updated_at: tctx.clock.now() });
  });
}

async function withCollectionOrder<T>(
  ctx: Ctx,
  id: string,
  fn: (tctx: TxCtx, order: OrderRow, pc: pq.CollectionRow) => Promise<T>,
): Promise<T> {
  const found = await pq.findCollection(ctx.db, id);
  if (!found?.order_id) throw collectionNotFound(id);
  return onLockedOrder(ctx, found.order_id, async (tctx, order) =>
    fn(tctx, order, await lockedCollection(tctx, order, id)),
  );
}

/** Who pays: the shopper (signed in as `customerId`, or a guest: null), or the operator at the desk. */
export type Payer = { customerId: string | null } | typeof OPERATOR;
export const OPERATOR = 'operator';

/**
 * A customer's order's collection is paid by that signed-in customer; a guest order's by whoever
 * holds the collection id (sent to the guest's email). Anyone else gets the 404 of an unknown one.
 * The operator may start and authorize any order's session (Medusa's admin payment routes).
 */
function assertShopperOf(order: OrderRow, payer: Payer, id: string): void {
  if (payer === OPERATOR) return;
  if (order.customer_id && order.customer_id !== payer.customerId) throw collectionNotFound(id);
}

/**
 * `POST /store/payment-collections/{id}/payment-sessions` on an order's collection (and the
 * operator's `POST /admin/payment-collections/{id}/payment-sessions`): a session of a provider the
 * order's region offers (a plugin's provider initiates it first, outside any transaction).
 * Replaces a session not yet authorized.
 */
export async function startDifferenceSession(
  ctx: Ctx,
  id: string,
  input: { provider_id: string; data?: Record<string, unknown> },
  payer: Payer,
  providers: Providers,
): Promise<AdminPaymentCollectionView> {
  const found = await pq.findCollection(ctx.db, id);
  if (!found?.order_id) throw collectionNotFound(id);
  const order = await onLockedOrder(ctx, found.order_id, async (_t, o) => o);
  assertShopperOf(order, payer, id);
  if (!(await offeredProviders(ctx, order.region_id, providers)).includes(input.provider_id))
    throw errors.invalid('payment_providers_not_found', { ids: input.provider_id });
  const sessionId = newId('payses');
  let session = { status: 'pending' as ReturnType<typeof sessionStatus>, data: input.data ?? {} };
  if (input.provider_id !== SYSTEM_PROVIDER) {
    const answer = await callPaymentProvider(
      providers,
      input.provider_id,
      'initiatePayment',
      {
        session_id: sessionId,
        amount: found.amount,
        currency_code: found.currency_code,
        data: jsonObjectOf(input.data ?? {}),
        cart: { id: order.id, email: order.email, customer_id: order.customer_id },
      },
      `initiate:${sessionId}`,
    );
    session = { status: sessionStatus(answer.status), data: (answer.data ?? {}) as Record<string, unknown> };
  }
  return withCollectionOrder(ctx, id, async (tctx, locked, pc) => {
    if (pc.status !== 'not_paid' && pc.status !== 'awaiting')
      throw errors.notAllowed('payment_collection_not_payable', {
        detail: `Payment collection ${id} is ${pc.status}: there is nothing to pay`,
      });
    const now = tctx.clock.now();
    await pq.deleteSessions(tctx.tx, pc.id);
    await pq.insertSession(tctx.tx, {
      id: sessionId,
      payment_collection_id: pc.id,
      provider_id: input.provider_id,
      currency_code: pc.currency_code,
      amount: pc.amount,
      status: session.status,
      data: session.data,
      created_at: now,
      updated_at: now,
    });
    await pq.updateCollection(tctx.tx, pc.id, { status: 'awaiting', updated_at: now });
    return collectionView(tctx, locked, pc.id);
  });
}

/**
 * `POST /store/payment-collections/{id}/authorize`: the shopper confirms the payment of the
 * difference; the session's provider is asked to authorize the amount (outside any transaction),
 * then the payment is recorded on the order, to be captured by the desk.
 */
export async function authorizeDifference(
  ctx: Ctx,
  id: string,
  customerId: string | null,
  providers: Providers,
): Promise<AdminPaymentCollectionView> {
  const authorized = await authorizeSession(ctx, id, { customerId }, providers);
  if (!authorized)
    throw errors.notAllowed('payment_collection_not_payable', { detail: 'Payment authorization failed' });
  return authorized;
}

/**
 * Asks the provider of the collection's session (`sessionId`, when the caller names one, must be
 * it) to authorize the amount, and records the payment; null when the provider did not authorize.
 */
async function authorizeSession(
  ctx: Ctx,
  id: string,
  payer: Payer,
  providers: Providers,
  sessionId?: string,
): Promise<AdminPaymentCollectionView | null> {
  const found = await pq.findCollection(ctx.db, id);
  if (!found?.order_id) throw collectionNotFound(id);
  const [session] = await pq.listSessions(ctx.db, id);
  if (!session || found.status !== 'awaiting' || (sessionId && session.id !== sessionId))
    throw errors.notAllowed('payment_collection_not_payable', {
      detail: sessionId
        ? `Payment session ${sessionId} is not waiting for authorization`
        : `Payment collection ${id} has no payment session: start one first`,
    });
  let data = session.data;
  if (session.provider_id !== SYSTEM_PROVIDER) {
    const answer = await callPaymentProvider(
      providers,
      session.provider_id,
      'authorizePayment',
      { session_id: session.id, amount: found.amount, currency_code: found.currency_code, data: jsonObjectOf(data) },
      `authorize:${session.id}`,
    );
    if (sessionStatus(answer.status) !== 'authorized') return null;
    data = (answer.data ?? data) as Record<string, unknown>;
  }
  return withCollectionOrder(ctx, id, async (tctx, order, pc) => {
    assertShopperOf(order, payer, id);
    const [current] = await pq.listSessions(tctx.tx, pc.id);
    if (pc.status !== 'awaiting' || current?.id !== session.id || current.amount !== pc.amount)
      throw errors.notAllowed('payment_collection_not_payable', {
        detail: `Payment collection ${id} changed meanwhile: start a payment session again`,
      });
    await authorizedPayment(tctx, order, pc, { ...session, data });
    return collectionView(tctx, order, pc.id);
  });
}

/**
 * `POST /admin/orders/{id}/payment-sessions/authorize { payment_session_id }`: the operator has the
 * provider checked again for a session of the order's collection that waits for authorization (a
 * bank transfer, a payment link). `is_authorized` false: the provider has not authorized it yet,
 * nothing changed. A session already authorized answers true.
 */
export async function authorizeOrderSession(
  ctx: Ctx,
  orderId: string,
  sessionId: string,
  providers: Providers,
): Promise<{ order: AdminOrderView; is_authorized: boolean }> {
  const session = await pq.findSession(ctx.db, sessionId);
  const pc = session && (await pq.findCollection(ctx.db, session.payment_collection_id));
  if (!session || pc?.order_id !== orderId) throw errors.notFound('payment_session_not_found', { id: sessionId });
  const authorized =
    session.status === 'authorized' || !!(await authorizeSession(ctx, pc.id, OPERATOR, providers, sessionId));
  return { order: await getOrder(ctx, orderId), is_authorized: authorized };
}
