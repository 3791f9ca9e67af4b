import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { anotherApp, startTestApp, type TestApp } from '../../../test/app.ts';
import type { App } from './types.ts';
import { RequestLogger } from './request-logger.ts';

let t: TestApp;
let app: App;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  app = await anotherApp(t, undefined, { logger: { level: 'info', stream } });
  app.get('/log-probe', (req) => {
    req.log.warn({ probe: 1 }, 'a line from a route');
    return { ok: true };
  });
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

describe("a request's logger", () => {
  it('writes its lines with the request id, as the child Fastify made for every request did', async () => {
    const res = await app.inject({ method: 'GET', url: '/log-probe' });
    expect(res.statusCode).toBe(200);
    const line = lines.find((l) => l.msg === 'a line from a route');
    expect(line).toMatchObject({ level: 40, probe: 1, reqId: res.headers['x-request-id'] });
  });

  it("makes pino's child only when the request logs", () => {
    const made: unknown[] = [];
    const logged: unknown[][] = [];
    const child = {
      level: 'info',
      warn: (...args: unknown[]) => logged.push(args),
    } as unknown as FastifyBaseLogger; // only what this test calls
    const parent = {
      child: (bindings: unknown) => {
        made.push(bindings);
        return child;
      },
    } as unknown as FastifyBaseLogger; // only what this test calls
    const log = new RequestLogger(parent, { reqId: 'r1' }, {});
    expect(made).toEqual([]);
    log.warn({ a: 1 }, 'first');
    log.warn('second');
    expect(made).toEqual([{ reqId: 'r1' }]);
    expect(logged).toEqual([[{ a: 1 }, 'first'], ['second']]);
    expect(log.level).toBe('info');
  });
});
