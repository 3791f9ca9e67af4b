import { existsSync } from 'node:fs';
import { BUILT_IN_ROLES, isBuiltInRole } from '../modules/team/roles.ts';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { systemClock } from '../platform/clock.ts';
import { loadConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db/database.ts';
import { createUser } from '../modules/auth/service.ts';
import { cliAuditScope } from '../modules/audit/scope.ts';
import { inTx } from '../platform/context.ts';
import { pluginInit } from './plugin-init.ts';
import { pluginDev } from './plugin-dev.ts';
import { pluginPack } from './plugin-pack.ts';
import { pluginPublish } from './plugin-publish.ts';
import { marketplaceAudit } from './marketplace-audit.ts';
import { rotateEncryptionKey } from '../platform/secret-rotation.ts';
import { UsageError } from './usage-error.ts';
import { seedStore } from './seed.ts';
import { storageFor } from '../modules/uploads/storage.ts';
import { backupDataDir, restoreDataDir } from '../platform/db/backup.ts';

const USAGE = `Usage:
  emporium user create --email <email> --password <password> [--role owner|admin|viewer|fulfilment|support]
  emporium seed                a store ready to browse: regions Europe (EUR) and United States (USD) with
                               standard and express shipping, two collections, categories, products with
                               sizes, prices, stock and pictures in the default sales channel (idempotent)
  emporium backup <file>       a consistent copy of the embedded database (also while the server runs)
  emporium restore <file>      create the embedded database of a new DATA_DIR from such a copy
  emporium rotate-encryption-key
                               re-encrypts every stored secret under ENCRYPTION_KEY in one transaction;
                               ENCRYPTION_KEY_PREVIOUS names the key they were written under (safe
                               while the servers run; docs/operations.md, "Rotating secrets")
  emporium plugin init <dir> [--id <slug>] [--vendor <slug>] [--name <name>] [--type integration|admin-extension|payment-provider|notification-provider]
  emporium plugin pack <dir> [--out <file.tgz>]
  emporium plugin dev <dir> --token <admin token> [--shop <url>] [--plugins-dir <the shop's PLUGINS_DIR>]
                               reloads the plugin into the running shop whenever its files change
  emporium plugin publish <file.tgz|dir> --marketplace <url> --token <admin token> [--price-eur <n>] [--changelog-url <url>] [--description <text>] [--rollout-percent <0-100>]
  emporium marketplace audit [<marketplace url>] [--shop <url> --token <admin token>] [--state <file>] [--json]
                               replays the marketplace's transparency log and checks every proof and
                               tree head; with --shop, also what that shop was served (exit 1 on a problem)

Uses the same configuration as the server (DATABASE_URL, or the embedded database under DATA_DIR;
stop an embedded-database server first: only one process may open its data dir).`;

async function userCreate(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string', default: 'admin' } },
  });
  if (!values.email || !values.password) throw new UsageError('--email and --password are required');
  if (!isBuiltInRole(values.role))
    throw new UsageError(`--role must be one of ${Object.keys(BUILT_IN_ROLES).join(', ')}`);
  if (values.password.length < 8) throw new UsageError('--password must have at least 8 characters');
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
  });
  try {
    await database.migrate();
    const input = { email: values.email, password: values.password, role: values.role };
    const audit = cliAuditScope(systemClock, 'user create', input, { resource: 'team' });
    const ctx = { db: database.db, clock: systemClock, log: pino({ level: 'silent' }), audit };
    const user = await inTx(ctx, (tctx) => createUser(tctx, input));
    console.log(`Created ${user.role} ${user.email} (${user.id})`);
  } finally {
    await database.close();
  }
}

/** `emporium backup|restore <file>`: the embedded database only; PostgreSQL has pg_dump (docs/operations.md, "Backups"). */
async function backupCommand(command: 'backup' | 'restore', argv: string[]) {
  const [file, ...extra] = argv;
  if (!file || extra.length) throw new UsageError(`emporium ${command} takes one file`);
  const secretsFile = path.resolve(process.env.DATA_DIR || './.data', 'secrets.json');
  const hadSecrets = existsSync(secretsFile);
  const config = loadConfig();
  if (config.databaseUrl)
    throw new UsageError(`DATABASE_URL is set: use pg_dump / pg_restore for PostgreSQL (docs/operations.md)`);
  if (command === 'backup') {
    const source = await backupDataDir(config.dataDir, file);
    console.log(`Backed up ${config.dataDir} (from the ${source}) to ${file}`);
  } else {
    await restoreDataDir(config.dataDir, file);
    console.log(`Restored ${file} into ${config.dataDir}; start the server with the same secrets (docs/operations.md)`);
    if (!hadSecrets && existsSync(secretsFile) && !process.env.ENCRYPTION_KEY)
      console.warn(
        `Warning: new secrets were generated in ${secretsFile}. Plugin secrets and signing keys in the backup need the old ENCRYPTION_KEY: copy the old secrets.json over it (or set the variables) before starting.`,
      );
  }
}

/** `emporium seed`: migrations, the default channel and key, then the demo catalog (see seed.ts). */
async function seedCommand(argv: string[]) {
  if (argv.length) throw new UsageError('emporium seed takes no arguments');
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const report = await seedStore(
      { db: database.db, clock: systemClock, log: pino({ level: 'silent' }) },
      storageFor(config.storage, config.publicUrl),
    );
    for (const line of report.created) console.log(`created ${line}`);
    for (const line of report.skipped) console.log(`already there: ${line}`);
  } finally {
    await database.close();
  }
}

/** `emporium rotate-encryption-key`: see platform/secret-rotation.ts and the runbook in docs/operations.md. */
async function rotateKeyCommand(argv: string[]) {
  if (argv.length) throw new UsageError('emporium rotate-encryption-key takes no arguments');
  const config = loadConfig();
  if (!process.env.ENCRYPTION_KEY && !config.databaseUrl)
    console.warn(`ENCRYPTION_KEY is not set: using the one in ${config.dataDir}/secrets.json`);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const report = await rotateEncryptionKey(database.db, config.encryptionKey);
    for (const c of report.columns)
      console.log(`${c.name}: ${c.rotated} re-encrypted, ${c.current} already under the current key`);
    console.log(
      `Every stored secret is now under key id ${report.keyId}. Remove ENCRYPTION_KEY_PREVIOUS from every instance once all of them run with the new ENCRYPTION_KEY.`,
    );
  } finally {
    await database.close();
  }
}

async function main(argv: string[]) {
  const [group, command, ...rest] = argv;
  if (group === 'rotate-encryption-key') return rotateKeyCommand(argv.slice(1));
  if (group === 'seed') return seedCommand(argv.slice(1));
  if (group === 'backup' || group === 'restore') return backupCommand(group, argv.slice(1));
  if (group === 'user' && command === 'create') return userCreate(rest);
  if (group === 'plugin' && command === 'init') return void pluginInit(rest);
  if (group === 'plugin' && command === 'pack') return void (await pluginPack(rest));
  if (group === 'plugin' && command === 'dev') return void pluginDev(rest);
  if (group === 'plugin' && command === 'publish') return void (await pluginPublish(rest));
  if (group === 'marketplace' && command === 'audit') {
    process.exitCode = await marketplaceAudit(rest);
    return;
  }
  throw new UsageError(argv.length ? `Unknown command: ${argv.join(' ')}` : 'No command given');
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  if (err instanceof UsageError) console.error(`\n${USAGE}`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
