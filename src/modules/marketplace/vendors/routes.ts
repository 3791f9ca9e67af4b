import { emptyBodyIsObject } from '../../../platform/http/body.ts';
import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { pageOf } from '../../../platform/http/pagination.ts';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams } from '../../../platform/http/schema-types.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import * as q from './queries.ts';
import * as s from './schema.ts';
import * as v from './vendors.ts';

const operatorTags = ['marketplace (vendors)'];
const vendorTags = ['marketplace (vendor self)'];

function vendorDeps(app: App, deps: AppDeps): v.VendorDeps {
  return { providers: app.providers, encryptionKey: deps.config.encryptionKey, publicUrl: deps.config.publicUrl };
}

/** The acting vendor's id; the operator has no vendor account of its own. */
function selfId(ctx: Ctx): string {
  const id = ctx.actor?.vendor?.id;
  if (!id) throw errors.invalid('marketplace_vendor_only', { instead: '/admin/marketplace/vendors' });
  return id;
}

/** Inside /store/marketplace: sign-up and the emailed link. */
export function registerVendorStoreRoutes(scope: App, deps: AppDeps): void {
  const vd = vendorDeps(scope, deps);
  const tags = ['marketplace (vendor sign-up)'];
  scope.post(
    '/vendors',
    {
      schema: {
        tags,
        summary: 'Sign up as a vendor: a verification link is emailed',
        body: s.SignUpBody,
        response: ok(s.SignUpResponse),
      },
    },
    async (req) => v.signUpVendor(req.ctx, vd, req.body),
  );
  scope.post(
    '/vendors/verify',
    {
      schema: {
        tags,
        summary: "Use the emailed link's token: the account becomes active and its first API token is shown once",
        body: s.VerifyBody,
        response: ok(s.VerifiedResponse),
      },
    },
    async (req) => v.verifyVendor(req.ctx, req.body.token),
  );
}

/** Inside /admin/marketplace: the operator's vendor desk, and a vendor's own account and tokens. */
export function registerVendorAdminRoutes(scope: App, deps: AppDeps): void {
  const vd = vendorDeps(scope, deps);
  scope.get(
    '/vendors',
    { schema: { tags: operatorTags, summary: 'Vendors', querystring: s.VendorsQuery, response: ok(s.VendorList) } },
    async (req) => {
      const page = pageOf(req.query);
      const [rows, count] = await Promise.all([q.listVendors(req.ctx.db, page), q.countVendors(req.ctx.db)]);
      return { vendors: await v.vendorJson(req.ctx, rows), count, ...page };
    },
  );
  scope.post(
    '/vendors',
    {
      schema: {
        tags: operatorTags,
        summary: 'Invite a vendor with its namespaces',
        body: s.InviteBody,
        response: ok(s.VendorEnvelope),
      },
    },
    async (req) => ({ vendor: await v.inviteVendor(req.ctx, vd, req.body) }),
  );
  scope.get(
    '/vendors/:id',
    { schema: { tags: operatorTags, summary: 'One vendor', params: IdParams, response: ok(s.VendorEnvelope) } },
    async (req) => ({ vendor: await v.getVendor(req.ctx, req.params.id) }),
  );
  scope.post(
    '/vendors/:id/namespaces',
    {
      schema: {
        tags: operatorTags,
        summary: 'Give a vendor one more namespace',
        params: IdParams,
        body: s.NamespaceBody,
        response: ok(s.VendorEnvelope),
      },
    },
    async (req) => ({ vendor: await v.addNamespace(req.ctx, req.params.id, req.body.namespace) }),
  );
  for (const [action, status] of [
    ['suspend', 'suspended'],
    ['reinstate', 'active'],
  ] as const) {
    scope.post(
      `/vendors/:id/${action}`,
      {
        schema: {
          tags: operatorTags,
          summary: `${action[0].toUpperCase()}${action.slice(1)} a vendor`,
          params: IdParams,
          response: ok(s.VendorEnvelope),
        },
        preValidation: emptyBodyIsObject,
      },
      async (req) => ({ vendor: await v.setVendorStatus(req.ctx, req.params.id, status) }),
    );
  }
  for (const [action, trusted] of [
    ['trust', true],
    ['untrust', false],
  ] as const) {
    scope.post(
      `/vendors/:id/${action}`,
      {
        schema: {
          tags: operatorTags,
          summary: trusted ? 'Let a vendor skip the human review step' : 'Review every version of a vendor again',
          params: IdParams,
          response: ok(s.VendorEnvelope),
        },
        preValidation: emptyBodyIsObject,
      },
      async (req) => ({ vendor: await v.setVendorTrusted(req.ctx, req.params.id, trusted) }),
    );
  }
  scope.post(
    '/vendors/:id/payouts',
    {
      schema: {
        tags: operatorTags,
        summary: "Set a vendor's commission (percent) and the Stripe connected account paid its share",
        params: IdParams,
        body: s.PayoutSettingsBody,
        response: ok(s.VendorEnvelope),
      },
    },
    async (req) => ({ vendor: await v.setPayoutSettings(req.ctx, req.params.id, req.body) }),
  );
  scope.get(
    '/vendors/:id/tokens',
    {
      schema: {
        tags: operatorTags,
        summary: "A vendor's API tokens (never their secrets)",
        params: IdParams,
        response: ok(s.TokenList),
      },
    },
    async (req) => ({ tokens: await v.listVendorTokens(req.ctx, (await v.getVendor(req.ctx, req.params.id)).id) }),
  );
  scope.post(
    '/vendors/:id/tokens/:token_id/revoke',
    {
      schema: {
        tags: operatorTags,
        summary: "Revoke a vendor's token",
        params: s.VendorTokenParams,
        response: ok(s.TokenEnvelope),
      },
    },
    async (req) => ({ token: await v.revokeVendorToken(req.ctx, req.params.id, req.params.token_id) }),
  );

  scope.get(
    '/vendor',
    {
      config: { vendorScope: 'read' },
      schema: { tags: vendorTags, summary: 'The acting vendor and its namespaces', response: ok(s.VendorEnvelope) },
    },
    async (req) => ({ vendor: await v.getVendor(req.ctx, selfId(req.ctx)) }),
  );
  scope.get(
    '/vendor/tokens',
    {
      config: { vendorScope: 'tokens' },
      schema: { tags: vendorTags, summary: "The acting vendor's tokens", response: ok(s.TokenList) },
    },
    async (req) => ({ tokens: await v.listVendorTokens(req.ctx, selfId(req.ctx)) }),
  );
  scope.post(
    '/vendor/tokens',
    {
      config: { vendorScope: 'tokens' },
      schema: {
        tags: vendorTags,
        summary: 'A new API token (for CI), its secret shown once',
        body: s.TokenBody,
        response: ok(s.IssuedEnvelope),
      },
    },
    async (req) => ({ token: await v.createVendorToken(req.ctx, selfId(req.ctx), req.body) }),
  );
  scope.post(
    '/vendor/tokens/:id/revoke',
    {
      config: { vendorScope: 'tokens' },
      schema: {
        tags: vendorTags,
        summary: 'Revoke one of its own tokens',
        params: s.TokenParams,
        response: ok(s.TokenEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ token: await v.revokeVendorToken(req.ctx, selfId(req.ctx), req.params.id) }),
  );
}
