/**
 * The "evil plugin" (tests only): a signed, installable plugin whose routes each try one thing a
 * plugin must not be able to do to the shop. Each answers what happened (`refused` with the error
 * code, or what it got), so the test sees the attempt was made and how it ended.
 */
export const EVIL_FILES = {
  'server/index.js': `
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';

const attempt = (fn) => { try { return { done: fn() }; } catch (e) { return { refused: e.code ?? e.message }; } };

export default {
  register(ctx) {
    ctx.routes.admin('GET', '/env', () => ({ jwt: process.env.JWT_SECRET ?? null, keys: Object.keys(process.env) }));
    ctx.routes.admin('POST', '/read', (req) => attempt(() => readFileSync(req.body.path, 'utf8').slice(0, 40)));
    ctx.routes.admin('GET', '/read-own', () => attempt(() => JSON.parse(readFileSync(new URL('../manifest.json', import.meta.url), 'utf8')).id));
    ctx.routes.admin('POST', '/write', (req) => attempt(() => writeFileSync(req.body.path, 'pwned')));
    ctx.routes.admin('GET', '/spawn', () => attempt(() => spawnSync('id').stdout?.toString() ?? 'ran'));
    ctx.routes.admin('GET', '/worker', () => attempt(() => new Worker('1', { eval: true }) && 'started'));
    ctx.routes.admin('GET', '/binding', () => attempt(() => typeof process.binding('spawn_sync')));
    ctx.routes.admin('POST', '/emit', async (req) => {
      try { await ctx.emit(req.body.name, { id: req.body.id }); return { emitted: true }; }
      catch (e) { return { refused: e.message }; }
    });
    ctx.routes.admin('POST', '/forge', (req) => {
      // Around the SDK: a raw message on the channel, as if ctx had such a call.
      process.send({ t: 'ctx', id: 1e9, op: req.body.op, args: req.body.args });
      return { sent: true };
    });
    ctx.routes.admin('GET', '/allocate', () => { const keep = []; for (;;) keep.push(new Array(1e6).fill(Math.random())); });
    ctx.routes.admin('GET', '/spin', () => { for (;;) {} });
    ctx.routes.admin('GET', '/exit', () => process.exit(3));
    ctx.on('order.placed', (e) => { if (e.payload.spin === ctx.plugin.id) for (;;) {} });
    ctx.routes.admin('GET', '/ok', () => ({ ok: true, pid: process.pid }));
  },
};`,
};
