import { randomBytes } from 'node:crypto';
import type { Ctx } from './platform/context.ts';
import type { Config } from './platform/config.ts';
import { ensureDefaultStoreAccess } from './modules/api-keys/defaults.ts';
import { countUsers } from './modules/auth/queries.ts';
import { createUser, ensureBootstrapAdmin } from './modules/auth/service.ts';
import { ensureDefaultProfile } from './modules/fulfillment/service.ts';
import { rebuildStoreDocumentsIfOutdated } from './modules/products/store-documents.ts';

export interface BootstrapReport {
  admin?: { email: string; password?: string };
  publishableKey?: string;
  /** The default channel and key were made by this start: a new shop (main.ts prints how to fill and run it). */
  newShop?: boolean;
  /** Marketplace role: id of the Ed25519 key that signs artifacts (generated on the first start). */
  signingKeyId?: string;
}

/**
 * Idempotent first-start setup, run after migrations: the configured admin, or on an empty
 * development instance a generated one (printed once), and the default channel + key; the
 * store's product documents rebuilt when they were made for another shape (or never).
 */
export async function bootstrap(ctx: Ctx, config: Config): Promise<BootstrapReport> {
  const report: BootstrapReport = {};
  const configured = await ensureBootstrapAdmin(ctx, config.adminEmail, config.adminPassword);
  if (configured) report.admin = { email: configured.email };
  else if (!config.production && !config.adminEmail && (await countUsers(ctx.db)) === 0) {
    const password = randomBytes(12).toString('base64url');
    const user = await createUser(ctx, { email: 'admin@localhost', password, role: 'owner' });
    report.admin = { email: user.email, password };
  }
  await rebuildStoreDocumentsIfOutdated(ctx.db);
  await ensureDefaultProfile(ctx.db, ctx.clock.now());
  const access = await ensureDefaultStoreAccess(ctx);
  if (access) report.publishableKey = access.token;
  if (access?.created && config.role === 'shop') report.newShop = true;
  if (config.role === 'marketplace') {
    // The marketplace role's code stays unloaded on a shop.
    const { ensureSigningKey } = await import('./modules/marketplace/keys/signing-keys.ts');
    report.signingKeyId = (await ensureSigningKey(ctx, config.encryptionKey)).keyId;
  }
  return report;
}

/** Printed on a new shop's first start: how to fill it and point Medusa's storefront at it. */
export function newShopHint(config: Config, publishableKey: string | undefined): string {
  return [
    'New shop. A catalog to browse: stop the server, run `npx emporium seed`, start again.',
    "Medusa's Next.js storefront: restart this server with AMOUNT_UNITS=major and give the storefront",
    `  MEDUSA_BACKEND_URL=${config.publicUrl} NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY=${publishableKey ?? '<publishable key>'} NEXT_PUBLIC_DEFAULT_REGION=de`,
    'docs/storefront.md has the details.',
  ].join('\n');
}
