import { Type } from 'typebox';
import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App, AppDeps, RouteModule } from '../../platform/http/types.ts';
import { requireCustomer } from '../customers/customer-auth.ts';
import { AdminOrderEnvelope, EmptyBody, StoreOrderEnvelope } from '../orders/desk-schema.ts';
import {
  acceptTransfer,
  cancelTransfer,
  declineTransfer,
  requestTransfer,
  type TransferDeps,
  transferToGuest,
} from './service.ts';

const tags = ['orders'];
const Note = Type.String({ maxLength: 2000 });
const TokenBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
const StoreRequestBody = Type.Object({ description: Type.Optional(Note) }, { additionalProperties: false });
const AdminTransferBody = Type.Object(
  {
    customer_id: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
  },
  { additionalProperties: false },
);

/** Medusa's AdminTransferOrderToGuest. */
const AdminTransferToGuestBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
  },
  { additionalProperties: false },
);

const transferDeps = (app: App, deps: AppDeps): TransferDeps => ({
  providers: app.providers,
  encryptionKey: deps.config.encryptionKey,
  storefrontUrl: deps.config.storefrontUrl,
});

/** Medusa's storefront transfer pages: request (signed in), accept or decline (the mailed token), cancel (the requester). */
export const storeOrderTransferRoutes: RouteModule = (app, deps) => {
  const reply = ok(StoreOrderEnvelope);
  app.post(
    '/orders/:id/transfer/request',
    {
      schema: {
        tags,
        summary:
          'Ask for a guest order placed with your email to move to your account (event order.transfer_requested)',
        params: IdParams,
        body: StoreRequestBody,
        response: reply,
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => {
      const customer = requireCustomer(req);
      const by = { type: 'customer' as const, id: customer.id };
      return {
        order: await requestTransfer(
          req.ctx,
          transferDeps(app, deps),
          req.params.id,
          { customer_id: customer.id, ...req.body },
          by,
        ),
      };
    },
  );
  app.post(
    '/orders/:id/transfer/accept',
    {
      schema: {
        tags,
        summary: 'Accept a transfer with the mailed token',
        params: IdParams,
        body: TokenBody,
        response: reply,
      },
    },
    async (req) => ({ order: await acceptTransfer(req.ctx, req.params.id, req.body.token) }),
  );
  app.post(
    '/orders/:id/transfer/decline',
    {
      schema: {
        tags,
        summary: 'Decline a transfer with the mailed token',
        params: IdParams,
        body: TokenBody,
        response: reply,
      },
    },
    async (req) => ({ order: await declineTransfer(req.ctx, req.params.id, req.body.token) }),
  );
  app.post(
    '/orders/:id/transfer/cancel',
    {
      schema: { tags, summary: 'Withdraw your transfer request', params: IdParams, body: EmptyBody, response: reply },
      preValidation: emptyBodyIsObject,
    },
    async (req) => {
      const customer = requireCustomer(req);
      return { order: await cancelTransfer(req.ctx, req.params.id, { type: 'customer', id: customer.id }) };
    },
  );
};

/** An operator asks for an order to move to a customer's account; the order's email accepts it. */
export const adminOrderTransferRoutes: RouteModule = adminResource('orders', (app, deps) => {
  const reply = ok(AdminOrderEnvelope);
  app.post(
    '/orders/:id/transfer',
    {
      schema: {
        tags,
        summary: "Request the order's transfer to a customer (event order.transfer_requested)",
        params: IdParams,
        body: AdminTransferBody,
        response: reply,
      },
    },
    async (req) => ({
      order: await requestTransfer(req.ctx, transferDeps(app, deps), req.params.id, req.body, {
        type: 'user',
        id: req.ctx.actor?.id ?? null,
      }),
    }),
  );
  app.post(
    '/orders/:id/transfer/guest',
    {
      schema: {
        tags,
        summary: 'Move the order to the guest customer with this email (found or created), at once',
        params: IdParams,
        body: AdminTransferToGuestBody,
        response: reply,
      },
    },
    async (req) => ({ order: await transferToGuest(req.ctx, req.params.id, req.body) }),
  );
  app.post(
    '/orders/:id/transfer/cancel',
    {
      schema: { tags, summary: 'Cancel the transfer request', params: IdParams, body: EmptyBody, response: reply },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({
      order: await cancelTransfer(req.ctx, req.params.id, { type: 'user', id: req.ctx.actor?.id ?? null }),
    }),
  );
});
