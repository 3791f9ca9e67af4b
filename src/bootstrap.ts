import { randomBytes } from 'node:crypto';
import type { Ctx } from './platform/context.ts';
import type { Config } from './platform/config.ts';
import { ensureDefaultStoreAccess } from './modules/api-keys/defaults.ts';
import { countUsers } from './modules/auth/queries.ts';
import { createUser, ensureBootstrapAdmin } from './modules/auth/service.ts';
import { ensureSigningKey } from './modules/marketplace/keys/signing-keys.ts';
import { rebuildStoreDocumentsIfOutdated } from './modules/products/store-documents.ts';

export interface BootstrapReport {
  admin?: { email: string; password?: string };
  publishableKey?: string;
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
    const user = await createUser(ctx, { email: 'admin@localhost', password, role: 'admin' });
    report.admin = { email: user.email, password };
  }
  await rebuildStoreDocumentsIfOutdated(ctx.db);
  const access = await ensureDefaultStoreAccess(ctx);
  if (access) report.publishableKey = access.token;
  if (config.role === 'marketplace') report.signingKeyId = (await ensureSigningKey(ctx, config.encryptionKey)).keyId;
  return report;
}
