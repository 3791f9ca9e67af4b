import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  adminToken,
  freshDatabase,
  publishableKey,
  startServer,
  stopServer,
  type ServerProcess,
} from '../processes.ts';

/**
 * Three shop and two marketplace processes on one PostgreSQL (a database per role) and one
 * Redis (keys under a prefix of this run), started at the same moment per role on empty
 * databases. Every instance runs its workers, as in production.
 */
export interface Cluster {
  shops: ServerProcess[];
  markets: ServerProcess[];
  shopDb: pg.Client;
  pluginsDir: string;
  shopToken: string;
  shopKey: string;
  marketToken: string;
  shopEnv: Record<string, string>;
  stop(): Promise<void>;
}

export const LEASE = { DELIVERY_TIMEOUT_MS: '2000', DELIVERY_LEASE_MS: '9000' };

function baseUrl(): string {
  const url = process.env.MULTI_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url)
    throw new Error('the multi-instance tier needs PostgreSQL: set DATABASE_URL (its database name is a prefix)');
  return url;
}

/** All of them, or none: when one fails to come up, the others are stopped before the error goes on. */
async function startAll(starting: Promise<ServerProcess>[]): Promise<ServerProcess[]> {
  const results = await Promise.allSettled(starting);
  const failed = results.find((r) => r.status === 'rejected');
  if (!failed) return results.map((r) => (r as PromiseFulfilledResult<ServerProcess>).value);
  await Promise.all(results.filter((r) => r.status === 'fulfilled').map((r) => stopServer(r.value)));
  throw failed.reason;
}

export async function startCluster(): Promise<Cluster> {
  const base = baseUrl();
  const name = new URL(base).pathname.slice(1) || 'emporium';
  const shopUrl = await freshDatabase(base, `${name}_multi_shop`);
  const marketUrl = await freshDatabase(base, `${name}_multi_market`);
  const redis = {
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `emporium-multi-${process.pid}-${randomBytes(4).toString('hex')}:`,
  };
  const work = mkdtempSync(path.join(tmpdir(), 'emporium-multi-'));
  const pluginsDir = path.join(work, 'plugins');
  mkdirSync(pluginsDir);

  const marketEnv = (i: number) => ({
    SERVICE_ROLE: 'marketplace',
    DATABASE_URL: marketUrl,
    DATA_DIR: path.join(work, `market-${i}`),
    MARKETPLACE_RATE_LIMIT: '10',
    TRUST_PROXY: 'true',
    ...LEASE,
    ...redis,
  });
  const markets = await startAll([1, 2].map((i) => startServer(`market-${i}`, marketEnv(i))));
  const marketToken = await adminToken(markets[0]);
  const marketKey = await publishableKey(markets[0], marketToken);

  const shopEnv = {
    DATABASE_URL: shopUrl,
    PLUGINS_DIR: pluginsDir,
    SERVICE_FEDERATION_URL: markets[0].url,
    SERVICE_FEDERATION_PK: marketKey,
    LOGIN_MAX_FAILURES: '6',
    CART_ABANDONMENT_CHECK_MS: '300',
    ...LEASE,
    ...redis,
  };
  const shops = await startAll(
    ['A', 'B', 'C'].map((n) => startServer(`shop-${n}`, { ...shopEnv, DATA_DIR: path.join(work, `shop-${n}`) })),
  ).catch(async (err) => {
    await Promise.all(markets.map((m) => stopServer(m)));
    throw err;
  });
  const shopToken = await adminToken(shops[0]);
  const shopKey = await publishableKey(shops[0], shopToken);
  const shopDb = new pg.Client({ connectionString: shopUrl });
  await shopDb.connect();
  return {
    shops,
    markets,
    shopDb,
    pluginsDir,
    shopToken,
    shopKey,
    marketToken,
    shopEnv,
    stop: async () => {
      await shopDb.end();
      await Promise.all([...shops, ...markets].filter((s) => s.proc.exitCode === null).map((s) => stopServer(s)));
      rmSync(work, { recursive: true, force: true });
    },
  };
}
