import { journey, Timings, type Shop } from './journey-calls.ts';
import { percentile } from './measure.ts';

/**
 * The journey bench's measuring loop and its tables (bench/journey.ts, and journey-replica.ts for
 * `--replica`): shoppers walking journeys for some seconds against one target, rounds of one
 * system and shopper count merged, journeys/s and p50/p99 per call kind printed.
 */

/** Every shopper who signs up uses it. */
export const PASSWORD = 'journey-password-1';

export interface Target {
  name: string;
  shop: Shop;
  /** Journeys started so far: shopper n walks page n, so pages differ across rounds too. */
  next: number;
  /** The server's CPU time so far (ms), for the servers started here. */
  cpu?: () => number;
  /** The server's resident memory now (MiB), for the servers started here. */
  rss?: () => number;
}

export interface Row {
  system: string;
  shoppers: number;
  journeys: number;
  seconds: number;
  failed: number;
  timings: Timings;
  /** The server's CPU time over the run (ms), when known. */
  cpuMs?: number;
}

/** `shoppers` loops of journeys for `seconds` (the journeys under way then finish and count). */
export async function run(target: Target, shoppers: number, seconds: number): Promise<Row> {
  const timings = new Timings();
  let journeys = 0;
  let failed = 0;
  const cpuBefore = target.cpu?.();
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: shoppers }, async () => {
      while (performance.now() < end) {
        try {
          await journey(target.shop, target.next++, timings, PASSWORD);
          journeys++;
        } catch (err) {
          failed++;
          if (timings.failures.length < 5) timings.failures.push(String(err).slice(0, 400));
        }
      }
    }),
  );
  const took = (performance.now() - start) / 1000;
  const cpuMs = cpuBefore === undefined ? undefined : target.cpu!() - cpuBefore;
  return { system: target.name, shoppers, journeys, failed, seconds: took, timings, cpuMs };
}

/** Rows of the same system and shopper count (the A B A B rounds) as one. */
export function merge(rows: Row[]): Row {
  const timings = new Timings();
  for (const r of rows) {
    for (const [kind, ms] of r.timings.ms) for (const m of ms) timings.add(kind, m);
    timings.failures.push(...r.timings.failures);
  }
  const sum = (f: (r: Row) => number) => rows.reduce((s, r) => s + f(r), 0);
  return {
    ...rows[0],
    journeys: sum((r) => r.journeys),
    failed: sum((r) => r.failed),
    seconds: sum((r) => r.seconds),
    timings,
    cpuMs: rows.every((r) => r.cpuMs !== undefined) ? sum((r) => r.cpuMs ?? 0) : undefined,
  };
}

export function report(rows: Row[]): void {
  const summary = rows.map((r) => ({
    system: r.system,
    shoppers: r.shoppers,
    'journeys/s': +(r.journeys / r.seconds).toFixed(2),
    journeys: r.journeys,
    failed: r.failed,
    'server cpu ms/journey': r.cpuMs === undefined ? '–' : +(r.cpuMs / Math.max(1, r.journeys)).toFixed(1),
  }));
  console.table(summary);
  const kinds = [...new Set(rows.flatMap((r) => [...r.timings.ms.keys()]))];
  const perKind: Record<string, Record<string, string>> = {};
  for (const kind of kinds) {
    perKind[kind] = {};
    for (const r of rows) {
      const ms = [...(r.timings.ms.get(kind) ?? [])].sort((a, b) => a - b);
      perKind[kind][`${r.system} ×${r.shoppers} p50/p99 ms`] = ms.length
        ? `${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 99).toFixed(1)}`
        : '–';
    }
  }
  console.table(perKind);
  for (const r of rows) for (const f of r.timings.failures) console.error(`[${r.system} ×${r.shoppers}] failed: ${f}`);
}

/** Per call kind: samples, p50 and p99 in ms. */
/** A run as the result files keep it: its rate, counts and each call kind's figures. */
export function runFigures(r: Row) {
  return {
    system: r.system,
    shoppers: r.shoppers,
    journeys_per_s: +(r.journeys / r.seconds).toFixed(2),
    journeys: r.journeys,
    failed: r.failed,
    calls: callFigures(r.timings),
  };
}

export function callFigures(t: Timings) {
  const out: Record<string, { n: number; p50: number; p99: number }> = {};
  for (const [kind, list] of t.ms) {
    const ms = [...list].sort((a, b) => a - b);
    out[kind] = { n: ms.length, p50: +percentile(ms, 50).toFixed(2), p99: +percentile(ms, 99).toFixed(2) };
  }
  return out;
}
