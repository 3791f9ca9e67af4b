import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../../test/app.ts';
import { emitLoose } from '../../../test/events.ts';
import { dispatchAndSend, webhookFixtures } from '../../modules/webhooks/webhooks.testing.ts';
import { inTx } from '../context.ts';
import { rows } from '../db/database.ts';
import { textArray } from '../db/prepared.ts';
import { outboxRetentionJob } from './outbox-retention.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const fx = webhookFixtures(() => t);
afterEach(() => fx.cleanup());

const DAY = 24 * 60 * 60 * 1000;
let seq = 0;
const uid = () => `order_ret_${Date.now().toString(36)}_${++seq}`;

/** Emits `order.placed` about a new id and answers that id. */
async function emitOne(): Promise<string> {
  const id = uid();
  await inTx(t.ctx, (tctx) => emitLoose(tctx, 'order.placed', { id }));
  return id;
}

const inOutbox = async (ids: string[]) =>
  (
    await rows<{ id: string }>(
      t.database.db,
      sql`select payload->>'id' as id from outbox where payload->>'id' = any(${textArray(ids)}) order by id`,
    )
  ).map((r) => r.id);

const job = (opts: { batchSize?: number } = {}) =>
  outboxRetentionJob({ days: 7, vacuum: t.database.kind === 'pglite', ...opts })!;

describe('outbox retention', () => {
  it('is configured by OUTBOX_RETENTION_DAYS: 7 days unless told, 0 keeps every event', () => {
    expect(testConfig().outboxRetentionDays).toBe(7);
    expect(testConfig({ OUTBOX_RETENTION_DAYS: '30' }).outboxRetentionDays).toBe(30);
    expect(outboxRetentionJob({ days: 0 })).toBeNull();
    expect(job()).toMatchObject({ name: 'outbox-retention', everyMs: 3_600_000, runAtStart: true });
  });

  it('deletes events dispatched more than 7 days ago, in batches; keeps recent and pending ones', async () => {
    const old = [await emitOne(), await emitOne(), await emitOne(), await emitOne(), await emitOne()];
    await t.workers.dispatcher.drain(); // dispatched now (day 0)
    const stuck = await emitOne(); // never dispatched: day 0, still pending on day 8
    await t.database.db.execute(
      sql`update outbox set locked_until = ${new Date(t.clock.now().getTime() + 30 * DAY).toISOString()}::timestamptz
          where payload->>'id' = ${stuck}`,
    );
    t.clock.advance(3 * DAY);
    const recent = await emitOne();
    await t.workers.dispatcher.drain(); // dispatched on day 3
    const all = [...old, stuck, recent];

    t.clock.advance(4 * DAY - 60_000); // day 7 less a minute: nothing is old enough yet
    expect(await job().run(t.ctx)).toBe(0);
    expect(await inOutbox(all)).toEqual([...all].sort());

    t.clock.advance(2 * 60_000); // day 7 and a minute: the five of day 0 go, two at a time
    expect(await job({ batchSize: 2 }).run(t.ctx)).toBe(5);
    expect(await inOutbox(all)).toEqual([stuck, recent].sort());

    t.clock.advance(10 * DAY); // the recent one's turn; the pending one stays however old
    expect(await job().run(t.ctx)).toBe(1);
    expect(await inOutbox(all)).toEqual([stuck]);
  });

  it('a webhook delivery still pending sends its own copy of the event once the outbox row is gone', async () => {
    const receiver = await fx.receiver({ status: 500 });
    await fx.subscribe(receiver.url, ['order.placed']);
    const id = await emitOne();
    await dispatchAndSend(t); // dispatched; the first attempt fails, a retry is due in a minute
    expect(receiver.requests).toHaveLength(1);

    t.clock.advance(8 * DAY);
    expect(await job().run(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await inOutbox([id])).toEqual([]);

    receiver.mode = { status: 200 };
    await t.workers.webhooks.drain();
    expect(receiver.requests).toHaveLength(2);
    expect(JSON.parse(receiver.requests[1].body.toString('utf8'))).toEqual({ id });
  });
});
