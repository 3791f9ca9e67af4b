import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/database.ts';
import type { PluginPackage } from '../../plugin-package/read-package.ts';
import { ensurePluginRole } from './plugin-role.ts';
import { enterPlugin, leavePlugin, schemaNameOf, withRawTx } from './raw-db.ts';
import { assertPluginSql } from './sql-guard.ts';

/** The `.sql` files directly in the manifest's migrations folder, in file-name order. */
export function migrationFiles(pkg: PluginPackage): { filename: string; sql: string; checksum: string }[] {
  const dir = pkg.manifest.migrations?.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!dir) return [];
  return [...pkg.files.entries()]
    .filter(([p]) => p.startsWith(`${dir}/`) && p.endsWith('.sql') && !p.slice(dir.length + 1).includes('/'))
    .map(([p, bytes]) => ({
      filename: p.slice(dir.length + 1),
      sql: bytes.toString('utf8'),
      checksum: createHash('sha256').update(bytes).digest('hex'),
    }))
    .sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
}

/**
 * Creates the plugin's role and schema and applies its migrations not yet recorded, each in its
 * own transaction as the plugin's role (so a migration can touch only its own schema), recorded
 * by the shop in the same transaction.
 * Applied files are skipped by name (reinstall, update, resumed install) and never rolled back.
 * An advisory lock per schema keeps two instances from applying the same file at once.
 * Returns the files applied now.
 */
export async function applyPluginMigrations(
  database: Database,
  log: FastifyBaseLogger,
  pkg: PluginPackage,
  now: Date,
): Promise<string[]> {
  const manifestId = pkg.manifest.id;
  const schema = schemaNameOf(manifestId);
  const files = migrationFiles(pkg);
  for (const file of files) {
    try {
      await assertPluginSql(file.sql, schema);
    } catch (err) {
      throw new Error(`Migration ${file.filename} refused: ${(err as Error).message}`);
    }
  }
  const owner = { vendor: pkg.manifest.vendor, manifestId };
  await withRawTx(database, (tx) => ensurePluginRole(tx, schema, owner));
  const applied: string[] = [];
  for (const file of files) {
    const ran = await withRawTx(database, async (tx) => {
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [schema]);
      const [done] = await tx.query<{ checksum: string }>(
        'select checksum from public.plugin_migrations where schema_name = $1 and filename = $2',
        [schema, file.filename],
      );
      if (done) {
        if (done.checksum !== file.checksum)
          log.warn(
            { plugin: manifestId, file: file.filename },
            'applied plugin migration changed since; not run again',
          );
        return false;
      }
      try {
        await enterPlugin(tx, schema);
        await tx.exec(file.sql);
      } catch (err) {
        throw new Error(`Migration ${file.filename} failed: ${(err as Error).message}`);
      }
      await leavePlugin(tx); // the shop's own bookkeeping below
      await tx.query(
        'insert into public.plugin_migrations (manifest_id, schema_name, filename, checksum, applied_at) values ($1, $2, $3, $4, $5)',
        [manifestId, schema, file.filename, file.checksum, now.toISOString()],
      );
      return true;
    });
    if (ran) applied.push(file.filename);
  }
  return applied;
}
