import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Ctx, TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import { findLiveCustomer } from '../customers/queries.ts';
import { findOrCreateGuest } from '../customers/service.ts';
import { queueMessage, type QueueDeps } from '../messaging/queue.ts';
import { addAction, assertChangeable, cancelChange, confirmChange, openChange } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import { orderPreview, type OrderPreview } from '../orders/changes/views.ts';
import { onLockedOrder, orderNotFound } from '../orders/desk.ts';
import type { OrderRow } from '../orders/queries.ts';
import * as tq from './queries.ts';

/**
 * Order transfers (Medusa's `/store/orders/{id}/transfer/*` and `/admin/orders/{id}/transfer`):
 * a customer with an account, or an operator for one, asks to move an order to that account. The
 * request is an order change of type `transfer` (one action, TRANSFER_CUSTOMER), and a token goes
 * by mail to the address the order was placed with: whoever holds it accepts (the order's
 * customer_id changes, as a new order version) or declines. The requester (or an operator)
 * may cancel. Only the token's hash is kept. Event order.transfer_requested.
 */

export interface TransferDeps extends QueueDeps {
  /** Where the shopper reviews the transfer: Medusa's storefront page `/order/{id}/transfer/{token}`. */
  storefrontUrl: string;
}

export type Requester = { type: 'customer'; id: string } | { type: 'user'; id: string | null };

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The order's open transfer request, else a 400. */
async function requestOf(tctx: TxCtx, order: OrderRow): Promise<cq.ChangeRow> {
  const open = await cq.openChangeOf(tctx.tx, order.id);
  if (open?.change_type !== 'transfer' || open.status !== 'requested')
    throw errors.notAllowed('order_transfer_not_requested', { id: order.id });
  return open;
}

/** Refuses a token that is not the request's (compared in constant time), with nothing written. */
async function checkToken(tctx: TxCtx, change: cq.ChangeRow, token: string): Promise<cq.ActionRow> {
  const [action] = await cq.listActionsOf(tctx.tx, [change.id]);
  const expected = Buffer.from(String(action?.details.token_hash ?? ''), 'hex');
  const given = Buffer.from(hash(token), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    throw errors.invalid('order_transfer_token_invalid');
  return action;
}

export function requestTransfer(
  ctx: Ctx,
  deps: TransferDeps,
  orderId: string,
  input: { customer_id: string; description?: string; internal_note?: string },
  by: Requester,
): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    assertChangeable(order);
    const customer = await findLiveCustomer(tctx.tx, input.customer_id);
    if (!customer) throw errors.notFound('order_customer_not_found', { id: input.customer_id });
    // A shopper asks only for a guest order placed with their own address: anyone else's is as unknown as a missing one.
    if (by.type === 'customer' && order.email.toLowerCase() !== customer.email?.toLowerCase())
      throw orderNotFound(order.id);
    if (!customer.has_account)
      throw errors.invalid('order_transfer_to_guest', { id: order.id, email: String(customer.email) });
    if (order.customer_id === customer.id)
      throw errors.invalid('order_transfer_same_customer', { id: order.id, customer: customer.id });
    if (by.type === 'customer' && order.customer_id && (await tq.hasAccount(tctx.tx, order.customer_id)))
      throw orderNotFound(order.id);
    const change = await openChange(tctx, order, 'transfer', input);
    const token = randomBytes(24).toString('base64url');
    await addAction(
      tctx,
      change,
      'TRANSFER_CUSTOMER',
      { reference_id: customer.id, token_hash: hash(token), original_email: order.email },
      0,
      { reference: 'customer', reference_id: customer.id },
    );
    const now = tctx.clock.now();
    const actor = by.id;
    await cq.updateChange(tctx.tx, change.id, {
      status: 'requested',
      created_by: actor,
      requested_by: actor,
      requested_at: now,
      updated_at: now,
    });
    await emit(tctx, 'order.transfer_requested', { id: order.id, order_change_id: change.id });
    await queueMessage(tctx, deps, {
      to: order.email,
      template: 'order.transfer_requested',
      data: { order_id: order.id, display_id: order.display_id, customer_email: customer.email },
      secretData: {
        transfer_token: token,
        transfer_url: `${deps.storefrontUrl}/order/${order.id}/transfer/${token}`,
      },
      resource: { type: 'order', id: order.id },
    });
    return orderPreview(tctx.tx, order);
  });
}

/** The token's holder accepts: the order moves to the customer as its next version. */
export function acceptTransfer(ctx: Ctx, orderId: string, token: string): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const change = await requestOf(tctx, order);
    const action = await checkToken(tctx, change, token);
    await confirmChange(tctx, order, change, async () => {
      await tq.setCustomer(tctx.tx, order.id, action.reference_id!, tctx.clock.now());
    });
    return orderPreview(tctx.tx, (await tq.findOrder(tctx.tx, order.id))!);
  });
}

export function declineTransfer(ctx: Ctx, orderId: string, token: string): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const change = await requestOf(tctx, order);
    await checkToken(tctx, change, token);
    const now = tctx.clock.now();
    await cq.updateChange(tctx.tx, change.id, { status: 'declined', declined_at: now, updated_at: now });
    return orderPreview(tctx.tx, order);
  });
}

/** The customer who asked, or an operator, withdraws the request. */
export function cancelTransfer(ctx: Ctx, orderId: string, by: Requester): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const change = await requestOf(tctx, order).catch((err) => {
      // A shopper learns nothing about an order that is not theirs.
      if (by.type === 'customer') throw orderNotFound(order.id);
      throw err;
    });
    if (by.type === 'customer' && change.requested_by !== by.id) throw orderNotFound(order.id);
    await cancelChange(tctx, change);
    return orderPreview(tctx.tx, order);
  });
}

/**
 * An operator moves an order to a guest at once (Medusa's `POST /admin/orders/{id}/transfer/guest`):
 * the guest customer with that email, found or created, gets the order and the order the email,
 * through a `transfer` change confirmed on the spot (no token, no mail: the operator decides),
 * so the order keeps its previous version. Medusa emits no event here, nor do we (a created guest
 * emits customer.created). Refused, with nothing written, on a canceled or archived order, while
 * another change is open, and when the order already is that guest's: a guest order (no customer)
 * placed with that email, or an order of the guest customer the email finds.
 */
export function transferToGuest(
  ctx: Ctx,
  orderId: string,
  input: { email: string; description?: string; internal_note?: string },
): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    assertChangeable(order);
    const email = input.email.toLowerCase();
    if (!order.customer_id && order.email.toLowerCase() === email)
      throw errors.invalid('order_transfer_same_customer', { id: order.id, email });
    const guest = await findOrCreateGuest(tctx, email, order.customer_id);
    if (order.customer_id === guest.id)
      throw errors.invalid('order_transfer_same_customer', { id: order.id, customer: guest.id });
    const change = await openChange(tctx, order, 'transfer', input);
    await addAction(
      tctx,
      change,
      'TRANSFER_CUSTOMER',
      { reference_id: guest.id, original_email: order.email, new_email: email },
      0,
      { reference: 'customer', reference_id: guest.id },
    );
    await confirmChange(tctx, order, change, async () => {
      await tq.setGuest(tctx.tx, order.id, guest.id, email, tctx.clock.now());
    });
    return orderPreview(tctx.tx, (await tq.findOrder(tctx.tx, order.id))!);
  });
}
