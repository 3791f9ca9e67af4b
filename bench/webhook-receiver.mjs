// Receivers for bench/webhooks.ts, in their own process (as a real endpoint would be):
// a fast one that checks every signature and answers 200 at once, and one that holds each
// request HANG_MS (default 30 s) before answering. Talks to the parent over IPC.
import http from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

const secret = process.env.BENCH_SECRET ?? '';
const hangMs = Number(process.env.HANG_MS ?? 30_000);
const now = () => performance.timeOrigin + performance.now();

let received = 0;
let badSignatures = 0;
let hangReceived = 0;
/** payload id → wall-clock ms of its first arrival */
let firstArrival = new Map();

function signed(body, header) {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.`).update(body).digest();
  return timingSafeEqual(Buffer.from(m[2], 'hex'), expected);
}

const fast = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = now();
    const body = Buffer.concat(chunks);
    received++;
    if (!signed(body, req.headers['x-service-signature'])) badSignatures++;
    const id = JSON.parse(body.toString('utf8')).id;
    if (!firstArrival.has(id)) firstArrival.set(id, at);
    res.end('ok');
  });
});

const hang = http.createServer((req, res) => {
  hangReceived++;
  req.resume();
  const timer = setTimeout(() => res.end('late'), hangMs);
  res.on('close', () => clearTimeout(timer));
});

for (const server of [fast, hang]) server.keepAliveTimeout = 60_000;
await Promise.all([fast, hang].map((s) => new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))));
process.send({ ready: true, fast: fast.address().port, hang: hang.address().port });

process.on('message', (msg) => {
  if (msg.cmd === 'stats') {
    process.send({
      stats: {
        received,
        badSignatures,
        hangReceived,
        firstArrival: msg.withArrivals ? Object.fromEntries(firstArrival) : undefined,
      },
    });
  } else if (msg.cmd === 'reset') {
    received = 0;
    badSignatures = 0;
    hangReceived = 0;
    firstArrival = new Map();
    process.send({ reset: true });
  } else if (msg.cmd === 'exit') {
    process.exit(0);
  }
});
