import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshWorkerDatabase } from '../../../test/database.ts';
import { eventually } from '../../../test/processes.ts';
import { PgListener } from './pg-listener.ts';

/** PostgreSQL only: on PGlite, LISTEN is the embedded database's own (database.ts). */
const base = process.env.DATABASE_URL;

describe.skipIf(!base)('LISTEN on PostgreSQL: one connection for every channel', () => {
  let admin: pg.Client;
  let listener: PgListener;
  const got: Record<string, string[]> = { a: [], b: [] };
  let stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const url = await freshWorkerDatabase(base as string, '_listen');
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    listener = new PgListener(pg.Client, url, 50);
  });
  afterAll(async () => {
    await listener?.close();
    await admin?.end();
  });

  const connections = async () =>
    Number(
      (
        await admin.query(
          "select count(*) as n from pg_stat_activity where application_name = 'emporium listen' and datname = current_database()",
        )
      ).rows[0].n,
    );
  const notify = (channel: string, payload: string) => admin.query('select pg_notify($1, $2)', [channel, payload]);

  it('delivers each channel to its own handlers over a single connection', async () => {
    stops = await Promise.all([
      listener.listen('chan_a', (p) => got.a.push(p)),
      listener.listen('chan_b', (p) => got.b.push(p)),
    ]);
    expect(await connections()).toBe(1);
    await notify('chan_a', 'one');
    await notify('chan_b', 'two');
    await eventually(async () => got.a.includes('one') && got.b.includes('two'), 5_000, 'both notifications');
    expect(got.a).toEqual(['one']);
    expect(got.b).toEqual(['two']);
  });

  it('reconnects when the server drops the connection, tells onLost, and listens on every channel again', async () => {
    let lost = 0;
    const stopLost = await listener.listen(
      'chan_a',
      () => {},
      () => lost++,
    );
    await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'emporium listen' and datname = current_database()",
    );
    // A NOTIFY sent while it reconnects is lost (the listeners poll as well): send until one arrives.
    await eventually(
      async () => {
        await notify('chan_a', 'back');
        await notify('chan_b', 'back');
        return got.a.includes('back') && got.b.includes('back');
      },
      10_000,
      'notifications after the reconnect',
    );
    expect(await connections()).toBe(1);
    expect(lost).toBe(1);
    await stopLost();
  });

  it('stops a channel when its last handler unlistens, and closes when none is left', async () => {
    const extra: string[] = [];
    const stopExtra = await listener.listen('chan_c', (p) => extra.push(p));
    const stopOther = await listener.listen('chan_c', (p) => extra.push(`other ${p}`));
    await stopExtra();
    await notify('chan_c', 'still');
    await eventually(async () => extra.includes('other still'), 5_000, 'the remaining handler');
    expect(extra).toEqual(['other still']);
    await stopOther();
    expect(await connections()).toBe(1); // chan_a and chan_b still listen
    for (const stop of stops) await stop();
    await eventually(async () => (await connections()) === 0, 5_000, 'the connection closed');
  });
});
