import { permissionsInWords } from '../../../plugin-package/permission-words.ts';
import type { PluginPackage } from '../../../plugin-package/read-package.ts';
import { migrationFiles } from '../../plugins/migrations.ts';
import { schemaNameOf } from '../../plugins/raw-db.ts';
import { assertPluginSql } from '../../plugins/sql-guard.ts';
import type { ReviewCheck, ReviewChecks } from './tables.ts';

/** Above the package reader's hard limit's share a listed plugin should need: a reviewer reads what ships. */
export const REVIEW_MAX_BUNDLE_BYTES = 5 * 1024 * 1024;

/**
 * The automatic checks run on every upload, before anyone reviews it. The package was already
 * read (manifest valid against the schema, paths safe, sizes under the reader's limits), so the
 * manifest check records that; the SQL guard is the one every shop runs before applying a
 * migration, here run early so a vendor learns at upload, not at a shop's install. Last, the
 * package is installed in the plugin sandbox against a throwaway shop (sandbox-install.ts).
 */
export async function runReviewChecks(
  pkg: PluginPackage,
  testInstall: (pkg: PluginPackage) => Promise<ReviewCheck>,
): Promise<ReviewChecks> {
  const permissions = permissionsInWords(pkg.manifest);
  const checks: ReviewCheck[] = [
    { name: 'manifest', ok: true, detail: `${pkg.manifest.type} ${pkg.manifest.id} ${pkg.manifest.version}` },
    { name: 'permissions', ok: permissions.length > 0, detail: permissions.join('; ') },
    {
      name: 'size',
      ok: pkg.size <= REVIEW_MAX_BUNDLE_BYTES,
      detail: `${pkg.size} bytes (limit ${REVIEW_MAX_BUNDLE_BYTES})`,
    },
    await sqlCheck(pkg),
  ];
  // The test install (sandbox-install.ts) starts a process: only for a package the cheap checks passed.
  checks.push(
    checks.every((c) => c.ok || c.name === 'permissions')
      ? await testInstall(pkg)
      : { name: 'install', ok: false, detail: 'Not run: an earlier check failed' },
  );
  return { checks, permissions };
}

async function sqlCheck(pkg: PluginPackage): Promise<ReviewCheck> {
  const files = migrationFiles(pkg);
  const schema = schemaNameOf(pkg.manifest.id);
  for (const file of files) {
    try {
      await assertPluginSql(file.sql, schema);
    } catch (err) {
      return { name: 'sql', ok: false, detail: `${file.filename}: ${(err as Error).message}` };
    }
  }
  return { name: 'sql', ok: true, detail: `${files.length} migration file(s) pass the SQL guard` };
}

/** The first failed check as the reason a vendor reads, or undefined when all passed. */
export function failedChecks(result: ReviewChecks): string | undefined {
  const failed = result.checks.filter((c) => !c.ok);
  if (!failed.length) return undefined;
  return `Automatic checks failed: ${failed.map((c) => `${c.name} (${c.detail || 'nothing declared'})`).join(', ')}`;
}

/** The names of the failed checks (`install, sql`), for an error message. */
export function failedNames(result: ReviewChecks): string {
  return result.checks
    .filter((c) => !c.ok)
    .map((c) => c.name)
    .join(', ');
}
