import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';

describe('DATABASE_READ_URL', () => {
  it('is read as a comma-separated list, with the lag limit', () => {
    const config = loadConfig({
      DATABASE_READ_URL: ' postgres://r1/shop, postgres://r2/shop ,',
      READ_REPLICA_MAX_LAG_MS: '250',
    } as NodeJS.ProcessEnv);
    expect(config.databaseReadUrls).toEqual(['postgres://r1/shop', 'postgres://r2/shop']);
    expect(config.readReplicaMaxLagMs).toBe(250);
    expect(loadConfig({} as NodeJS.ProcessEnv).databaseReadUrls).toEqual([]);
  });

  it('is ignored on the embedded database, with a log line', { timeout: 60_000 }, async () => {
    const warnings: string[] = [];
    const log = { warn: (_: object, msg: string) => warnings.push(msg), info: () => {} };
    const database = await openDatabase({
      dataDir: null,
      readUrls: ['postgres://replica/shop'],
      replicas: { maxLagMs: 1_000, log },
    });
    try {
      expect(database.kind).toBe('pglite');
      expect(database.replicas).toBeUndefined();
      expect(warnings).toEqual([expect.stringContaining('DATABASE_READ_URL is ignored on the embedded database')]);
    } finally {
      await database.close();
    }
  });
});

describe('the routes read on replicas', () => {
  it('are all GET routes of the app (a renamed route must not drop out of the table unseen)', {
    timeout: 120_000,
  }, async () => {
    const { startTestApp } = await import('../../../test/app.ts');
    const { REPLICA_ROUTES } = await import('../http/read-routing.ts');
    const t = await startTestApp();
    try {
      const gets = new Set(t.app.routeTable.filter((r) => r.method === 'GET').map((r) => r.url));
      expect(Object.keys(REPLICA_ROUTES).filter((url) => !gets.has(url))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
