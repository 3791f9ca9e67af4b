import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { licenceToken } from './licence-key.ts';
import * as q from './licence-queries.ts';
import { ensureSigningKey } from './signing-keys.ts';

export const LICENCE_TIER = 'standard';
export const LICENCE_DAYS = 365;
export const DAY_MS = 24 * 3_600_000;

export type LicenceReason = 'unknown' | 'revoked' | 'wrong_instance' | 'expired';

export interface VerifyInput {
  license_key: string;
  marketplace_id: string;
  instance_id: string;
}

/**
 * The verdict on a licence, checked in the contract's order (B4): a key that does not exist or
 * belongs to another item is `unknown` (so a key reveals nothing about other items), then
 * revoked, then bound to another instance, then past its expiry on the app clock.
 */
export async function checkLicence(ctx: Ctx, input: VerifyInput): Promise<{ ok: true; licence: q.LicenseRow } | { ok: false; reason: LicenceReason }> {
  const licence = await q.findLicenseByKey(ctx.db, input.license_key);
  if (!licence || licence.marketplace_id !== input.marketplace_id) return { ok: false, reason: 'unknown' };
  if (licence.revoked_at) return { ok: false, reason: 'revoked' };
  if (licence.instance_id !== input.instance_id) return { ok: false, reason: 'wrong_instance' };
  if (licence.expires_at.getTime() <= ctx.clock.now().getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, licence };
}

/** POST /store/marketplace/license/verify: the verdict, and for a valid licence a signed token to keep as offline proof. */
export async function verifyLicence(ctx: Ctx, deps: { encryptionKey: string; publicUrl: string }, input: VerifyInput) {
  const verdict = await checkLicence(ctx, input);
  if (!verdict.ok) return { valid: false, reason: verdict.reason };
  const { licence } = verdict;
  const key = await ensureSigningKey(ctx, deps.encryptionKey);
  const claims = { marketplace_id: licence.marketplace_id, instance_id: licence.instance_id, tier: licence.tier, expiresAt: licence.expires_at };
  const token = await licenceToken(key, deps.publicUrl, claims, ctx.clock.now());
  return { valid: true, expires_at: licence.expires_at, tier: licence.tier, renewed_at: licence.renewed_at, token };
}

/** The vendor's view of a licence; `status` is derived on the app clock. */
export function licenceJson(row: q.LicenseRow, now: Date) {
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

const notFound = (id: string) => errors.notFound(`Licence with id: ${id} was not found`);

export async function listLicences(ctx: Ctx, query: { limit?: number; offset?: number; marketplace_id?: string }) {
  const page = pageOf(query);
  const filters = { marketplaceId: query.marketplace_id };
  const [rows, count] = await Promise.all([q.listLicenseRows(ctx.db, filters, page), q.countLicenses(ctx.db, filters)]);
  const now = ctx.clock.now();
  return { licenses: rows.map((r) => licenceJson(r, now)), count, ...page };
}

export async function getLicence(ctx: Ctx, id: string) {
  const row = await q.findLicenseById(ctx.db, id);
  if (!row) throw notFound(id);
  return licenceJson(row, ctx.clock.now());
}

/** Idempotent: revoking again keeps the first revocation time. */
export async function revokeLicence(ctx: Ctx, id: string) {
  const row = await q.findLicenseById(ctx.db, id);
  if (!row) throw notFound(id);
  const now = ctx.clock.now();
  const revoked = row.revoked_at ? row : await q.updateLicense(ctx.db, id, { revoked_at: now, updated_at: now });
  return licenceJson(revoked!, now);
}

/** Extends by `days` (default a year) from the current expiry, or from now when it already lapsed. */
export async function renewLicence(ctx: Ctx, id: string, days = LICENCE_DAYS) {
  const row = await q.findLicenseById(ctx.db, id);
  if (!row) throw notFound(id);
  if (row.revoked_at) throw errors.notAllowed(`Licence ${id} is revoked and cannot be renewed`);
  const now = ctx.clock.now();
  return licenceJson((await q.renewLicense(ctx.db, id, now, days))!, now);
}
