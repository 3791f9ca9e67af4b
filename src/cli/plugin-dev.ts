import { watch, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { validateManifest } from '../plugin-package/manifest.ts';
import { packPlugin } from '../plugin-package/pack-package.ts';
import { UsageError } from './usage-error.ts';

interface PluginRowJson {
  id: string;
  marketplace_id: string;
  status: string;
  error: string | null;
  pending_update: { version: string; new_rights: string[]; approve_url: string } | null;
}
/** The parts of the admin API's answers the dev loop reads. */
export interface AdminAnswer {
  plugin?: PluginRowJson;
  plugins?: PluginRowJson[];
  message?: string;
}
/** An admin API call: `--shop` + `--token` over fetch, or anything answering the same (tests). */
export type AdminCall = (
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
) => Promise<{ status: number; body: AdminAnswer | null }>;

export interface DevOptions {
  dir: string;
  /** The running shop's PLUGINS_DIR: reloads go through its local-package install path. */
  pluginsDir: string;
  call: AdminCall;
  log?: (line: string) => void;
  /** Quiet time after the last change before reloading. */
  debounceMs?: number;
}

export interface DevSession {
  /** Resolves when `n` reloads have finished (each one installed, updated or failed). */
  reloaded(n: number): Promise<void>;
  /** The outcome of the last reload: the plugin row as the admin API shows it, or the error. */
  readonly last: { version: string; status: string; error: string | null } | null;
  stop(): void;
}

const BUSY = new Set(['installing', 'updating']);
/** The dev build number: seconds since 2024, so every reload (and every session) is newer than the last. */
const buildNumber = () => Math.floor((Date.now() - Date.UTC(2024, 0, 1)) / 1000);

/** `1.2` → `1.2.0.<build>`: a dev version the shop treats as an update of the previous reload. */
export function devVersion(version: string, build: number): string {
  const parts = version.split('.');
  if (parts.length > 3) throw new UsageError(`plugin dev needs a version of at most three numbers, got ${version}`);
  while (parts.length < 3) parts.push('0');
  return [...parts, String(build)].join('.');
}

async function waitSettled(call: AdminCall, id: string): Promise<PluginRowJson> {
  for (;;) {
    const res = await call('GET', `/admin/plugins/${id}`);
    if (res.status !== 200 || !res.body?.plugin)
      throw new Error(`GET /admin/plugins/${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (!BUSY.has(res.body.plugin.status)) return res.body.plugin;
    await delay(100); // the shop installs in the background; poll its row
  }
}

/** Packs the folder as the next dev version into PLUGINS_DIR and installs or updates it in the shop. */
async function reload(opts: DevOptions, state: { build: number }) {
  const manifest = validateManifest(JSON.parse(await readFile(path.join(opts.dir, 'manifest.json'), 'utf8')));
  state.build = Math.max(state.build + 1, buildNumber());
  const version = devVersion(manifest.version, state.build);
  const { bytes } = await packPlugin(opts.dir, { version });
  const mid = `@${manifest.vendor}/${manifest.id}`;
  // One file per plugin, replaced on every reload: the shop lists it as the newest local version.
  writeFileSync(path.join(opts.pluginsDir, `${manifest.vendor}-${manifest.id}.dev.tgz`), bytes);

  const list = await opts.call('GET', '/admin/plugins?limit=1000');
  const row = (list.body?.plugins ?? []).find((p) => p.marketplace_id === mid);
  let started: Awaited<ReturnType<AdminCall>>;
  if (!row || row.status === 'failed')
    started = await opts.call('POST', '/admin/plugins/install', { marketplace_id: mid, version, license_key: null });
  else started = await opts.call('POST', `/admin/plugins/${row.id}/update`, { version });
  if (started.status >= 300 || !started.body?.plugin)
    throw new Error(`${started.status}: ${started.body?.message ?? 'refused'}`);
  let plugin = await waitSettled(opts.call, started.body.plugin.id);
  if (plugin.pending_update?.version === version) {
    // Your own plugin on your own shop: the rights it now asks for are approved for you, and said.
    opts.log?.(`approving new rights: ${plugin.pending_update.new_rights.join(', ')}`);
    const ok = await opts.call('POST', plugin.pending_update.approve_url, { version });
    if (ok.status >= 300) throw new Error(`${ok.status}: ${ok.body?.message ?? 'approval refused'}`);
    plugin = await waitSettled(opts.call, plugin.id);
  }
  return { version, status: plugin.status, error: plugin.error ?? null };
}

/**
 * `emporium plugin dev <dir>`: reloads a local plugin into a running shop whenever its files
 * change. Each reload is packed as a new dev version (`<version>.<build>`) into the shop's
 * PLUGINS_DIR and installed or updated through the admin API, the same verified path an
 * operator's local package takes (migrations, register, hot swap without a restart).
 */
export function startPluginDev(opts: DevOptions): DevSession {
  const log = opts.log ?? (() => {});
  const state = { build: 0 };
  let done = 0;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const waiters: { n: number; resolve: () => void }[] = [];
  const session: DevSession = {
    last: null,
    reloaded: (n) => (done >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    stop: () => {
      clearTimeout(timer);
      watcher.close();
    },
  };
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    do {
      again = false;
      try {
        const outcome = await reload(opts, state);
        (session as { last: DevSession['last'] }).last = outcome;
        log(`${outcome.version}: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ''}`);
      } catch (err) {
        (session as { last: DevSession['last'] }).last = {
          version: '',
          status: 'error',
          error: (err as Error).message,
        };
        log(`reload failed: ${(err as Error).message}`);
      }
      done++;
      for (const w of waiters.filter((w) => w.n <= done)) w.resolve();
    } while (again);
    running = false;
  };
  const watcher = watch(opts.dir, { recursive: true }, (_event, file) => {
    const name = String(file ?? '');
    if (name.split(path.sep).some((part) => part.startsWith('.') || part === 'node_modules')) return;
    clearTimeout(timer);
    timer = setTimeout(run, opts.debounceMs ?? 150);
  });
  void run();
  return session;
}

/** The command line: `emporium plugin dev <dir> --shop <url> --token <admin token> [--plugins-dir <dir>]`. */
export function pluginDev(argv: string[], env: NodeJS.ProcessEnv = process.env): DevSession {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      shop: { type: 'string', default: 'http://127.0.0.1:9000' },
      token: { type: 'string' },
      'plugins-dir': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('plugin dev takes one folder');
  if (!values.token) throw new UsageError('--token is required (an admin token of the running shop)');
  const shop = values.shop.replace(/\/+$/, '');
  const call: AdminCall = async (method, url, body) => {
    const res = await fetch(`${shop}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${values.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  const dir = path.resolve(positionals[0]);
  const pluginsDir = path.resolve(values['plugins-dir'] ?? (env.PLUGINS_DIR || './plugins'));
  console.log(`Watching ${dir}; reloading into ${shop} through ${pluginsDir} (Ctrl-C stops)`);
  return startPluginDev({ dir, pluginsDir, call, log: (line) => console.log(line) });
}
