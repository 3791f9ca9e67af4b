import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { pageOf } from '../../../platform/http/pagination.ts';
import { licenseToken } from './license-key.ts';
import * as q from './queries.ts';
import { ensureSigningKey } from '../keys/signing-keys.ts';

export const LICENSE_TIER = 'standard';
export const LICENSE_DAYS = 365;
export const DAY_MS = 24 * 3_600_000;

export type LicenseReason = 'unknown' | 'revoked' | 'wrong_instance' | 'expired';

export interface VerifyInput {
  license_key: string;
  marketplace_id: string;
  instance_id: string;
}

/**
 * The verdict on a license, checked in a fixed order: a key that does not exist or
 * belongs to another item is `unknown` (so a key reveals nothing about other items), then
 * revoked, then bound to another instance, then past its expiry on the app clock.
 */
export async function checkLicense(
  ctx: Ctx,
  input: VerifyInput,
): Promise<{ ok: true; license: q.LicenseRow } | { ok: false; reason: LicenseReason }> {
  const license = await q.findLicenseByKey(ctx.db, input.license_key);
  if (!license || license.marketplace_id !== input.marketplace_id) return { ok: false, reason: 'unknown' };
  if (license.revoked_at) return { ok: false, reason: 'revoked' };
  if (license.instance_id !== input.instance_id) return { ok: false, reason: 'wrong_instance' };
  if (license.expires_at.getTime() <= ctx.clock.now().getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, license };
}

/** POST /store/marketplace/license/verify: the verdict, and for a valid license a signed token to keep as offline proof. */
export async function verifyLicense(ctx: Ctx, deps: { encryptionKey: string; publicUrl: string }, input: VerifyInput) {
  const verdict = await checkLicense(ctx, input);
  if (!verdict.ok) return { valid: false, reason: verdict.reason };
  const { license } = verdict;
  const key = await ensureSigningKey(ctx, deps.encryptionKey);
  const claims = {
    marketplace_id: license.marketplace_id,
    instance_id: license.instance_id,
    tier: license.tier,
    expiresAt: license.expires_at,
  };
  const token = await licenseToken(key, deps.publicUrl, claims, ctx.clock.now());
  return { valid: true, expires_at: license.expires_at, tier: license.tier, renewed_at: license.renewed_at, token };
}

/** The vendor's view of a license; `status` is derived on the app clock. */
export function licenseJson(row: q.LicenseRow, now: Date) {
  const status = row.revoked_at ? 'revoked' : row.expires_at.getTime() <= now.getTime() ? 'expired' : 'active';
  return {
    id: row.id,
    key: row.key,
    marketplace_id: row.marketplace_id,
    instance_id: row.instance_id,
    tier: row.tier,
    status,
    purchased_by: row.purchased_by,
    expires_at: row.expires_at,
    renewed_at: row.renewed_at,
    revoked_at: row.revoked_at,
    checkout_session_id: row.checkout_session_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const notFound = (id: string) => errors.notFound('marketplace_license_not_found', { id });

/** `namespaces`: a vendor's own (only licences of its items); absent for the operator. */
export async function listLicenses(
  ctx: Ctx,
  query: { limit?: number; offset?: number; marketplace_id?: string },
  namespaces?: string[],
) {
  const page = pageOf(query);
  const filters = { marketplaceId: query.marketplace_id, namespaces };
  const [rows, count] = await Promise.all([q.listLicenseRows(ctx.db, filters, page), q.countLicenses(ctx.db, filters)]);
  const now = ctx.clock.now();
  return { licenses: rows.map((r) => licenseJson(r, now)), count, ...page };
}

export async function getLicense(ctx: Ctx, id: string) {
  const row = await q.findLicenseById(ctx.db, id);
  if (!row) throw notFound(id);
  return licenseJson(row, ctx.clock.now());
}

/** Idempotent: revoking again keeps the first revocation time. */
export async function revokeLicense(ctx: Ctx, id: string) {
  const row = await q.findLicenseById(ctx.db, id);
  if (!row) throw notFound(id);
  const now = ctx.clock.now();
  const revoked = row.revoked_at ? row : await q.updateLicense(ctx.db, id, { revoked_at: now, updated_at: now });
  return licenseJson(revoked!, now);
}

/** Extends by `days` (default a year) from the current expiry, or from now when it already lapsed. */
export async function renewLicense(ctx: Ctx, id: string, days = LICENSE_DAYS) {
  const row = await q.findLicenseById(ctx.db, id);
  if (!row) throw notFound(id);
  if (row.revoked_at) throw errors.notAllowed('marketplace_license_revoked', { id });
  const now = ctx.clock.now();
  return licenseJson((await q.renewLicense(ctx.db, id, now, days))!, now);
}
