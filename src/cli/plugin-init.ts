import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PLUGIN_TYPES, validateManifest, type PluginManifest, type PluginType } from '../plugin-package/manifest.ts';
import { PackageError } from '../plugin-package/errors.ts';
import { sdkTarball } from './sdk-tarball.ts';
import { UsageError } from './usage-error.ts';

const SERVER_ENTRY = `// Server entry: the shop calls register(ctx) at install and at every start.
// ctx: on(event, handler), routes.admin/store(method, path, handler), db.query(sql, params),
// config, logger, emit. Types: plugin-sdk/index.ts of Emporium.

/** @type {import('@emporium/plugin-sdk').Plugin} */
export default {
  register(ctx) {
    ctx.on('order.placed', async (event) => {
      await ctx.db.query('insert into seen_orders (order_id) values ($1) on conflict do nothing', [event.payload.id]);
    });

    ctx.routes.admin('GET', '/seen', async () => ({
      orders: await ctx.db.query('select order_id, seen_at from seen_orders order by seen_at desc limit 50'),
    }));

    ctx.logger.info('registered');
  },
};
`;

const PAYMENT_ENTRY = `// A payment provider: the shop knows it as pp_<id> (see PaymentProvider in Emporium's plugin-sdk).
// Arguments and answers are plain JSON; pass context.idempotency_key on to your processor.
// Dependencies declared in package.json are bundled into this file by \`emporium plugin pack\`.

/** @type {import('@emporium/plugin-sdk').Plugin} */
export default {
  register(ctx) {
    ctx.payments.register({
      id: 'my-processor',
      name: 'My processor',
      async initiatePayment({ session_id, amount, currency_code }) {
        // Create the payment with the processor here; what you return is the session's data.
        return { data: { reference: session_id, amount, currency_code }, status: 'pending' };
      },
      async authorizePayment({ amount, data }) {
        return { status: 'authorized', amount, data };
      },
      async capturePayment({ data }) {
        return { data };
      },
      async refundPayment({ data }) {
        return { data };
      },
      async cancelPayment({ data }) {
        return { data };
      },
      async getPaymentStatus({ data }) {
        return { status: 'authorized', data };
      },
    });
  },
};
`;

const NOTIFICATION_ENTRY = `// A notification provider (see NotificationProvider in Emporium's plugin-sdk): the shop renders
// each message and hands it to send(); throw when it did not go out, and the shop retries it.

/** @type {import('@emporium/plugin-sdk').Plugin} */
export default {
  register(ctx) {
    ctx.notifications.register({
      id: 'my-sender',
      channels: ['email'],
      async send({ id, to, content }) {
        ctx.logger.info('would send', { id, to, subject: content.subject });
        return { id };
      },
    });
  },
};
`;

const MIGRATION = `-- Runs once, in the plugin's own schema: keep table names unqualified.
create table seen_orders (
  order_id text primary key,
  seen_at timestamptz not null default now()
);
`;

const ADMIN_ENTRY = `// Admin entry: the admin panel renders this widget into its slot.

/** @type {import('@emporium/plugin-sdk').AdminExtension} */
export default {
  slot: 'dashboard',
  title: 'My widget',
  render(el) {
    el.textContent = 'Hello from my plugin';
  },
};
`;

function slugOf(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'my-plugin'
  );
}

function manifestFor(opts: { id: string; vendor: string; name: string; type: PluginType }): PluginManifest {
  const admin = opts.type === 'admin-extension';
  const provider = opts.type === 'payment-provider' || opts.type === 'notification-provider';
  const manifest: PluginManifest = {
    id: opts.id,
    vendor: opts.vendor,
    name: opts.name,
    version: '0.1.0',
    type: opts.type,
    description: `${opts.name}: describe what it does.`,
    ...(admin
      ? { admin: 'admin/index.js' }
      : provider
        ? { server: 'server/index.js' }
        : { server: 'server/index.js', migrations: 'migrations', events: ['order.placed'] }),
    engine: '>=0.1.0 <1',
    // Exactly what the skeleton's code uses: the shop refuses anything else.
    permissions: admin
      ? {}
      : opts.type === 'payment-provider'
        ? { providers: ['payments'], hosts: ['api.example.com'] }
        : opts.type === 'notification-provider'
          ? { providers: ['notifications'] }
          : { events: ['order.placed'], routes: { admin: true } },
  };
  try {
    return validateManifest(manifest);
  } catch (err) {
    throw new UsageError(
      err instanceof PackageError ? err.message.replace('Invalid manifest.json: ', '') : String(err),
    );
  }
}

/** `emporium plugin init <dir>`: a skeleton that packs as it is. Returns the files written. */
export function pluginInit(argv: string[]): string[] {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      id: { type: 'string' },
      vendor: { type: 'string', default: 'example' },
      name: { type: 'string' },
      type: { type: 'string', default: 'integration' },
      sdk: { type: 'string' },
    },
  });
  const dir = positionals[0];
  if (!dir || positionals.length > 1) throw new UsageError('plugin init takes one folder');
  if (!(PLUGIN_TYPES as readonly string[]).includes(values.type))
    throw new UsageError(`--type must be one of ${PLUGIN_TYPES.join(', ')}`);
  if (existsSync(dir) && readdirSync(dir).length) throw new UsageError(`${dir} exists and is not empty`);
  const id = values.id ?? slugOf(path.basename(path.resolve(dir)));
  const manifest = manifestFor({ id, vendor: values.vendor, name: values.name ?? id, type: values.type as PluginType });

  // The SDK as a tarball inside the plugin (dot folders are never packed into the plugin), wired
  // as a devDependency: types for the editor and createTestHost for the plugin's own tests.
  const sdk = values.sdk ? { filename: path.basename(values.sdk), bytes: readFileSync(values.sdk) } : sdkTarball();
  const packageJson = {
    name: `@${manifest.vendor}/${manifest.id}`,
    version: manifest.version,
    private: true,
    type: 'module',
    scripts: { test: 'node --test', pack: 'emporium plugin pack .', dev: 'emporium plugin dev .' },
    devDependencies: { '@emporium/plugin-sdk': `file:.emporium/${sdk.filename}` },
  };
  const files: Record<string, string | Buffer> = {
    'package.json': `${JSON.stringify(packageJson, null, 2)}\n`,
    [`.emporium/${sdk.filename}`]: sdk.bytes,
    'manifest.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'README.md': `# ${manifest.name} (\`@${manifest.vendor}/${manifest.id}\`)\n\n${manifest.description}\n\nPack: \`npx emporium plugin pack ${dir}\`\nPublish: \`npx emporium plugin publish <file.tgz> --marketplace <url> --token <admin token>\`\n`,
    ...(manifest.admin
      ? { [manifest.admin]: ADMIN_ENTRY }
      : manifest.type === 'payment-provider'
        ? { [manifest.server!]: PAYMENT_ENTRY }
        : manifest.type === 'notification-provider'
          ? { [manifest.server!]: NOTIFICATION_ENTRY }
          : { [manifest.server!]: SERVER_ENTRY, 'migrations/0001_init.sql': MIGRATION }),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  console.log(`Created @${manifest.vendor}/${manifest.id} (${manifest.type}) in ${dir}`);
  return Object.keys(files).map((f) => path.join(dir, f));
}
