/**
 * The growth report of the journey bench: reads the JSON files `npm run bench:journey` writes per
 * size (bench/results/journey/: `journey-<db>-<n>-products.json`, `desk-<db>-<n>-orders.json`) and
 * renders how each figure grows with the catalog (1k → 10k → 100k products) and the order book
 * (10k → 100k → 1M orders), as a markdown page and an SVG plot:
 *
 *   npx tsx bench/journey-growth.ts                    # docs/journey-growth.md, docs/journey-growth.svg
 *   npx tsx bench/journey-growth.ts --in <dir> --out docs/journey-growth
 *
 * Files written by a run with `--sample` (a tiny run to check this rendering) mark the page as
 * a sample, not a result.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    in: { type: 'string', default: path.join(ROOT, 'bench/results/journey') },
    out: { type: 'string', default: path.join(ROOT, 'docs/journey-growth') },
  },
});

interface Figure {
  p50: number;
  p99: number;
}
interface Machine {
  load: string;
  cpus: number;
  node: string;
}
interface JourneyResult {
  kind: 'journey';
  database: string;
  products: number;
  categories: number;
  rss_mib: number;
  sample: boolean;
  date: string;
  machine: Machine;
  runs: { system: string; shoppers: number; journeys_per_s: number; failed: number; calls: Record<string, Figure> }[];
}
interface DeskResult {
  kind: 'desk';
  database: string;
  orders: number;
  customers: number;
  rss_mib: number;
  sample: boolean;
  date: string;
  machine: Machine;
  /** How its orders were made: `import` (POST /admin/orders/import) or `checkout` (the store API; files without it). */
  seeding?: { via?: string };
  calls: Record<string, Figure>;
}
type Result = JourneyResult | DeskResult;

export function readResults(dir: string): Result[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Result);
}

const count = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));
const ms = (f: Figure | undefined) => (f ? `${f.p50.toFixed(1)} / ${f.p99.toFixed(1)}` : '–');
/** The journey's calls the growth table shows (the rest are in the JSON). */
const JOURNEY_CALLS = ['home handles', 'category products', 'product', 'cart read', 'complete', 'order read'];

/** Markdown tables: per database, journeys/s and chosen calls by catalog size; desk calls by order count. */
export function renderMarkdown(results: Result[], svgName: string): string {
  const sample = results.some((r) => r.sample);
  const out: string[] = ['# The journey as the shop grows', ''];
  if (sample)
    out.push(
      '> **SAMPLE, NOT A RESULT.** Rendered from a tiny run on a loaded machine to check this page;',
      '> the figures mean nothing. The quiet-machine run (`npm run bench:journey -- --reuse --products',
      '> 1000,10000,100000 --orders 10000,100000,1000000`, then `npx tsx bench/journey-growth.ts`) replaces it.',
      '',
    );
  out.push(
    'Made by `bench/journey-growth.ts` from the JSON files of `npm run bench:journey` (bench/journey.ts).',
    'Times are p50 / p99 in ms; the ratio column is each size against the smallest.',
    '',
    `![growth](./${svgName})`,
    '',
  );
  for (const database of [...new Set(results.map((r) => r.database))].sort()) {
    const journeys = results
      .filter((r): r is JourneyResult => r.kind === 'journey' && r.database === database)
      .sort((a, b) => a.products - b.products);
    if (journeys.length) {
      out.push(`## Storefront journey by catalog size (${database})`, '');
      const shoppers = [...new Set(journeys.flatMap((j) => j.runs.map((r) => r.shoppers)))].sort((a, b) => a - b);
      out.push(
        `| products | categories | ${shoppers.map((s) => `journeys/s ×${s}`).join(' | ')} | ratio ×${shoppers.at(-1)} | ${JOURNEY_CALLS.join(' | ')} | RSS MiB | load |`,
        `|${'---|'.repeat(5 + shoppers.length + JOURNEY_CALLS.length)}`,
      );
      const base = emporiumRun(journeys[0], shoppers.at(-1)!)?.journeys_per_s;
      for (const j of journeys) {
        const top = emporiumRun(j, shoppers.at(-1)!);
        const rates = shoppers.map((s) => emporiumRun(j, s)?.journeys_per_s.toFixed(2) ?? '–');
        const ratio = base && top ? (top.journeys_per_s / base).toFixed(2) : '–';
        const calls = JOURNEY_CALLS.map((c) => ms(top?.calls[c]));
        out.push(
          `| ${count(j.products)} | ${j.categories} | ${rates.join(' | ')} | ${ratio} | ${calls.join(' | ')} | ${j.rss_mib} | ${j.machine.load} |`,
        );
      }
      out.push('', `Call times at ${shoppers.at(-1)} shoppers.`, '');
    }
    const desks = results
      .filter((r): r is DeskResult => r.kind === 'desk' && r.database === database)
      .sort((a, b) => a.orders - b.orders);
    if (desks.length) {
      out.push(`## Order desk by order count (${database})`, '');
      const kinds = [...new Set(desks.flatMap((d) => Object.keys(d.calls)))];
      out.push(
        `| call | ${desks.map((d) => `${count(d.orders)} orders`).join(' | ')} |`,
        `|${'---|'.repeat(desks.length + 1)}`,
      );
      for (const kind of kinds) out.push(`| ${kind} | ${desks.map((d) => ms(d.calls[kind])).join(' | ')} |`);
      out.push(
        `| customers | ${desks.map((d) => count(d.customers)).join(' | ')} |`,
        `| orders made by | ${desks.map((d) => d.seeding?.via ?? 'checkout').join(' | ')} |`,
        `| measured on | ${desks.map((d) => d.date.slice(0, 10)).join(' | ')} |`,
        `| server RSS MiB | ${desks.map((d) => d.rss_mib).join(' | ')} |`,
        `| load average | ${desks.map((d) => d.machine.load).join(' | ')} |`,
        '',
      );
    }
  }
  return `${out.join('\n')}\n`;
}

const emporiumRun = (j: JourneyResult, shoppers: number) =>
  j.runs.find((r) => r.system === 'emporium' && r.shoppers === shoppers);

interface Series {
  name: string;
  points: [number, number][];
}

const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#4b5563'];

/** One panel: x on a log scale (sizes), y linear from 0; a line and dots per series, a legend below. */
function panel(x0: number, title: string, yLabel: string, series: Series[]): string {
  const w = 420;
  const h = 260;
  const left = 50;
  const top = 46;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  if (!xs.length) return '';
  const lx = (x: number) => Math.log10(x);
  const [minX, maxX] = [Math.min(...xs.map(lx)), Math.max(...xs.map(lx))];
  const maxY = Math.max(...ys, 1) * 1.1;
  const px = (x: number) => x0 + left + (maxX === minX ? w / 2 : ((lx(x) - minX) / (maxX - minX)) * w);
  const py = (y: number) => top + h - (y / maxY) * h;
  const parts = [
    `<text x="${x0 + left}" y="18" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
    `<line x1="${x0 + left}" y1="${top + h}" x2="${x0 + left + w}" y2="${top + h}" stroke="#999"/>`,
    `<line x1="${x0 + left}" y1="${top}" x2="${x0 + left}" y2="${top + h}" stroke="#999"/>`,
    `<text x="${x0 + 4}" y="${top - 10}" font-size="10">${escapeXml(yLabel)}</text>`,
  ];
  for (let k = 0; k <= 4; k++) {
    const y = (maxY * k) / 4;
    parts.push(
      `<text x="${x0 + left - 4}" y="${py(y) + 3}" font-size="9" text-anchor="end">${y >= 10 ? y.toFixed(0) : y.toFixed(1)}</text>`,
    );
  }
  for (const x of [...new Set(xs)].sort((a, b) => a - b))
    parts.push(`<text x="${px(x)}" y="${top + h + 14}" font-size="10" text-anchor="middle">${count(x)}</text>`);
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const pts = [...s.points].sort((a, b) => a[0] - b[0]);
    parts.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`,
      ...pts.map(([x, y]) => `<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${color}"/>`),
      `<rect x="${x0 + left + (i % 2) * 210}" y="${top + h + 24 + Math.floor(i / 2) * 14}" width="10" height="10" fill="${color}"/>`,
      `<text x="${x0 + left + (i % 2) * 210 + 14}" y="${top + h + 33 + Math.floor(i / 2) * 14}" font-size="10">${escapeXml(s.name)}</text>`,
    );
  });
  return parts.join('\n');
}

function seriesNamed(all: Series[], name: string): Series {
  const found = all.find((x) => x.name === name);
  if (found) return found;
  const made: Series = { name, points: [] };
  all.push(made);
  return made;
}

const escapeXml = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Two panels: journeys/s by catalog size (a line per database and shopper count), desk p50 by order count. */
export function renderSvg(results: Result[]): string {
  const journeys = results.filter((r): r is JourneyResult => r.kind === 'journey');
  const desks = results.filter((r): r is DeskResult => r.kind === 'desk');
  const rate: Series[] = [];
  for (const j of journeys)
    for (const run of j.runs.filter((r) => r.system === 'emporium')) {
      const name = `${j.database} ×${run.shoppers}`;
      seriesNamed(rate, name).points.push([j.products, run.journeys_per_s]);
    }
  const desk: Series[] = [];
  for (const d of desks)
    for (const [kind, f] of Object.entries(d.calls)) {
      const name = `${kind} (${d.database})`;
      seriesNamed(desk, name).points.push([d.orders, f.p50]);
    }
  const legendRows = Math.ceil(Math.max(rate.length, desk.length) / 2);
  const height = 346 + legendRows * 14;
  const sample = results.some((r) => r.sample);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="${height}" viewBox="0 0 1000 ${height}" font-family="sans-serif">`,
    `<title>${sample ? 'SAMPLE, not a result: ' : ''}journeys/s by catalog size and order desk p50 by order count</title>`,
    '<rect width="100%" height="100%" fill="white"/>',
    panel(0, 'Journeys/s by products', 'journeys/s', rate),
    panel(500, 'Order desk p50 by orders', 'ms', desk),
    sample
      ? `<text x="500" y="${height / 2}" font-size="48" fill="#dc2626" fill-opacity="0.25" text-anchor="middle" transform="rotate(-12 500 ${height / 2})">SAMPLE, NOT A RESULT</text>`
      : '',
    '</svg>',
    '',
  ].join('\n');
}

function main() {
  const results = readResults(opts.in);
  if (!results.length) throw new Error(`no results in ${opts.in}: run npm run bench:journey first`);
  const svgName = `${path.basename(opts.out)}.svg`;
  writeFileSync(`${opts.out}.md`, renderMarkdown(results, svgName));
  writeFileSync(`${opts.out}.svg`, renderSvg(results));
  console.error(`wrote ${opts.out}.md and ${opts.out}.svg from ${results.length} result files`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
