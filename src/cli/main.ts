import { parseArgs } from 'node:util';
import pino from 'pino';
import { systemClock } from '../platform/clock.ts';
import { loadConfig } from '../platform/config.ts';
import { openDatabase } from '../platform/db/database.ts';
import { createUser } from '../modules/auth/service.ts';
import { pluginInit } from './plugin-init.ts';
import { pluginPack } from './plugin-pack.ts';
import { pluginPublish } from './plugin-publish.ts';
import { UsageError } from './usage-error.ts';

const USAGE = `Usage:
  emporium user create --email <email> --password <password> [--role admin|viewer]
  emporium plugin init <dir> [--id <slug>] [--vendor <slug>] [--name <name>] [--type integration|admin-extension|payment-provider|notification-provider]
  emporium plugin pack <dir> [--out <file.tgz>]
  emporium plugin publish <file.tgz|dir> --marketplace <url> --token <admin token> [--price-eur <n>] [--changelog-url <url>] [--description <text>]

Uses the same configuration as the server (DATABASE_URL, or the embedded database under DATA_DIR;
stop an embedded-database server first: only one process may open its data dir).`;

async function userCreate(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string', default: 'admin' } },
  });
  if (!values.email || !values.password) throw new UsageError('--email and --password are required');
  if (values.role !== 'admin' && values.role !== 'viewer') throw new UsageError('--role must be admin or viewer');
  if (values.password.length < 8) throw new UsageError('--password must have at least 8 characters');
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const user = await createUser({ db: database.db, clock: systemClock, log: pino({ level: 'silent' }) }, {
      email: values.email,
      password: values.password,
      role: values.role,
    });
    console.log(`Created ${user.role} ${user.email} (${user.id})`);
  } finally {
    await database.close();
  }
}

async function main(argv: string[]) {
  const [group, command, ...rest] = argv;
  if (group === 'user' && command === 'create') return userCreate(rest);
  if (group === 'plugin' && command === 'init') return void pluginInit(rest);
  if (group === 'plugin' && command === 'pack') return void (await pluginPack(rest));
  if (group === 'plugin' && command === 'publish') return void (await pluginPublish(rest));
  throw new UsageError(argv.length ? `Unknown command: ${argv.join(' ')}` : 'No command given');
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  if (err instanceof UsageError) console.error(`\n${USAGE}`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
