import { randomBytes } from 'node:crypto';
import { inTx, type Ctx, type TxCtx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { newId } from '../../../platform/ids.ts';
import { queueMessage, type QueueDeps } from '../../messaging/queue.ts';
import { tokenHash as hashOf } from './lookup.ts';
import * as q from './queries.ts';
import type { VendorScope } from './tables.ts';

/** A verification link is good this long (the sign-up or invitation email). */
export const VERIFY_TTL_MS = 48 * 3_600_000;
export const ALL_SCOPES: readonly VendorScope[] = ['read', 'publish', 'tokens'];
/** A namespace as the manifest's `vendor` field writes it (lower-case slug); shown with an `@`. */
const NAMESPACE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface VendorDeps extends QueueDeps {
  publicUrl: string;
}

const secret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

export function namespaceOf(input: string): string {
  const ns = input.startsWith('@') ? input.slice(1) : input;
  if (!NAMESPACE.test(ns) || ns.length > 64) throw errors.invalid('marketplace_namespace_invalid', { input });
  return ns;
}

export interface VendorJson {
  id: string;
  name: string;
  email: string;
  status: q.VendorRow['status'];
  namespaces: string[];
  trusted: boolean;
  commission_percent: number;
  payout_account: string | null;
  verified_at: string | null;
  created_at: string;
}

export async function vendorJson(ctx: Ctx, rows: q.VendorRow[]): Promise<VendorJson[]> {
  const owned = await q.namespacesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    status: r.status,
    namespaces: owned.filter((n) => n.vendor_id === r.id).map((n) => `@${n.namespace}`),
    trusted: r.trusted,
    commission_percent: r.commission_percent,
    payout_account: r.payout_account,
    verified_at: r.verified_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
  }));
}

async function sendVerification(
  tctx: TxCtx,
  deps: VendorDeps,
  vendor: q.VendorRow,
  namespace: string | null,
  template: 'marketplace.vendor_verify' | 'marketplace.vendor_invite',
): Promise<void> {
  const token = secret('mvv_');
  const now = tctx.clock.now();
  await q.insertVerification(tctx.tx, {
    token_hash: hashOf(token),
    vendor_id: vendor.id,
    namespace,
    expires_at: new Date(now.getTime() + VERIFY_TTL_MS),
    created_at: now,
  });
  await queueMessage(tctx, deps, {
    to: vendor.email,
    template,
    data: { name: vendor.name, email: vendor.email },
    secretData: { verify_url: `${deps.publicUrl}/app/vendor/verify?token=${token}` },
    resource: { type: 'marketplace_vendor', id: vendor.id },
  });
}

/** A new vendor row (its email lower-cased), as sign-up and an invitation make it. */
function newVendor(input: { name: string; email: string }, status: 'unverified' | 'invited', now: Date) {
  return {
    id: newId('mven'),
    name: input.name,
    email: input.email.toLowerCase(),
    status,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Sign-up: an `unverified` vendor and an emailed link. The namespace is only asked for here; it is
 * claimed when the link is used, so an address nobody verified cannot squat `@acme`. The answer is
 * the same for an address already registered (no account discovery).
 */
export async function signUpVendor(
  ctx: Ctx,
  deps: VendorDeps,
  input: { name: string; email: string; namespace: string },
): Promise<{ status: 'verification_sent' }> {
  const ns = namespaceOf(input.namespace);
  if (await q.namespaceOwner(ctx.db, ns)) throw errors.conflict('marketplace_namespace_taken', { namespace: ns });
  await inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const vendor = await q.insertVendor(tctx.tx, newVendor(input, 'unverified', now));
    if (vendor) await sendVerification(tctx, deps, vendor, ns, 'marketplace.vendor_verify');
  });
  return { status: 'verification_sent' };
}

/** The operator invites a vendor with its namespaces claimed now; the emailed link activates it. */
export async function inviteVendor(
  ctx: Ctx,
  deps: VendorDeps,
  input: { name: string; email: string; namespaces: string[] },
): Promise<VendorJson> {
  const namespaces = input.namespaces.map(namespaceOf);
  const row = await inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const vendor = await q.insertVendor(tctx.tx, newVendor(input, 'invited', now));
    if (!vendor) throw errors.conflict('marketplace_vendor_email_exists', { email: input.email });
    for (const ns of namespaces)
      if (!(await q.claimNamespace(tctx.tx, ns, vendor.id, now)))
        throw errors.conflict('marketplace_namespace_taken', { namespace: ns });
    await sendVerification(tctx, deps, vendor, null, 'marketplace.vendor_invite');
    return vendor;
  });
  return (await vendorJson(ctx, [row]))[0];
}

export interface IssuedToken {
  id: string;
  name: string;
  scopes: VendorScope[];
  /** The secret, shown this once: only its sha256 is kept. */
  token: string;
  created_at: string;
}

async function issueToken(tctx: TxCtx, vendorId: string, name: string, scopes: VendorScope[]): Promise<IssuedToken> {
  const token = secret('mvk_');
  const now = tctx.clock.now();
  const row = await q.insertToken(tctx.tx, {
    id: newId('mvt'),
    vendor_id: vendorId,
    name,
    token_hash: hashOf(token),
    scopes,
    created_at: now,
    updated_at: now,
  });
  return { id: row.id, name: row.name, scopes: row.scopes, token, created_at: row.created_at.toISOString() };
}

/**
 * The emailed link: activates the vendor, claims the namespace a sign-up asked for, and answers
 * the vendor's first API token (every scope), shown once.
 */
export async function verifyVendor(ctx: Ctx, token: string): Promise<{ vendor: VendorJson; token: IssuedToken }> {
  const { vendor, issued } = await inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const used = await q.consumeVerification(tctx.tx, hashOf(token), now);
    if (!used) throw errors.invalid('marketplace_verification_link_invalid');
    if (used.namespace && !(await q.claimNamespace(tctx.tx, used.namespace, used.vendor_id, now)))
      throw errors.conflict('marketplace_namespace_taken_meanwhile', { namespace: used.namespace });
    // Only a new account activates this way: a suspended vendor stays suspended whatever link it kept.
    const current = await q.findVendor(tctx.tx, used.vendor_id);
    if (current?.status !== 'unverified' && current?.status !== 'invited')
      throw errors.invalid('marketplace_vendor_cannot_activate');
    const row = (await q.updateVendor(tctx.tx, current.id, { status: 'active', verified_at: now, updated_at: now }))!;
    return { vendor: row, issued: await issueToken(tctx, row.id, 'first token', [...ALL_SCOPES]) };
  });
  return { vendor: (await vendorJson(ctx, [vendor]))[0], token: issued };
}

export function createVendorToken(ctx: Ctx, vendorId: string, input: { name: string; scopes: VendorScope[] }) {
  return inTx(ctx, (tctx) => issueToken(tctx, vendorId, input.name, [...new Set(input.scopes)]));
}

export async function listVendorTokens(ctx: Ctx, vendorId: string) {
  const rows = await q.listTokens(ctx.db, vendorId);
  return rows.map(tokenJson);
}

export function tokenJson(r: q.VendorTokenRow) {
  return {
    id: r.id,
    name: r.name,
    scopes: r.scopes,
    last_used_at: r.last_used_at?.toISOString() ?? null,
    revoked_at: r.revoked_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
  };
}

export async function revokeVendorToken(ctx: Ctx, vendorId: string, tokenId: string) {
  const row = await q.revokeToken(ctx.db, vendorId, tokenId, ctx.clock.now());
  if (!row) throw errors.notFound('marketplace_vendor_token_not_found', { id: tokenId });
  return tokenJson(row);
}

export async function getVendor(ctx: Ctx, id: string): Promise<VendorJson> {
  const row = await q.findVendor(ctx.db, id);
  if (!row) throw errors.notFound('marketplace_vendor_not_found', { id });
  return (await vendorJson(ctx, [row]))[0];
}

export async function addNamespace(ctx: Ctx, id: string, namespace: string): Promise<VendorJson> {
  const ns = namespaceOf(namespace);
  await getVendor(ctx, id);
  if (!(await q.claimNamespace(ctx.db, ns, id, ctx.clock.now())))
    throw errors.conflict('marketplace_namespace_taken', { namespace: ns });
  return getVendor(ctx, id);
}

/** The operator suspends (every token stops at once) or reinstates a vendor. */
export async function setVendorStatus(ctx: Ctx, id: string, status: 'active' | 'suspended'): Promise<VendorJson> {
  const current = await q.findVendor(ctx.db, id);
  if (!current) throw errors.notFound('marketplace_vendor_not_found', { id });
  if (status === 'active' && !current.verified_at) throw errors.invalid('marketplace_vendor_activate_by_email');
  await q.updateVendor(ctx.db, id, { status, updated_at: ctx.clock.now() });
  return getVendor(ctx, id);
}

/** The operator marks a vendor trusted: its versions that pass the automatic checks are approved without review. */
export async function setVendorTrusted(ctx: Ctx, id: string, trusted: boolean): Promise<VendorJson> {
  await getVendor(ctx, id);
  await q.updateVendor(ctx.db, id, { trusted, updated_at: ctx.clock.now() });
  return getVendor(ctx, id);
}

/** A Stripe connected account id, as Stripe Connect issues them. */
const PAYOUT_ACCOUNT = /^acct_[A-Za-z0-9]{1,64}$/;

/** The operator sets a vendor's commission and the connected account its share is transferred to. */
export async function setPayoutSettings(
  ctx: Ctx,
  id: string,
  input: { commission_percent?: number; payout_account?: string | null },
): Promise<VendorJson> {
  if (input.payout_account && !PAYOUT_ACCOUNT.test(input.payout_account))
    throw errors.invalid('marketplace_payout_account_invalid');
  await getVendor(ctx, id);
  await q.updateVendor(ctx.db, id, {
    ...(input.commission_percent !== undefined ? { commission_percent: input.commission_percent } : {}),
    ...(input.payout_account !== undefined ? { payout_account: input.payout_account || null } : {}),
    updated_at: ctx.clock.now(),
  });
  return getVendor(ctx, id);
}
