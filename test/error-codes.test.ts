import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS } from '../src/platform/http/error-codes.ts';
import { errors } from '../src/platform/http/errors.ts';
import { startTestApp, type TestApp } from './app.ts';

const ROOT = join(import.meta.dirname, '..');
const DOC = join(ROOT, 'docs/errors.md');
const START = '<!-- error-codes:start -->';
const END = '<!-- error-codes:end -->';

/** A message as table text: `|` would end the cell and `<word>` would be read as an HTML tag by VitePress. */
const docsText = (message: string) => message.replaceAll('|', '\\|').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A code's message cell: its template, or each of its templates on a line of its own. */
const messageCell = (message: string | readonly string[]) =>
  typeof message === 'string' ? docsText(message) : message.map(docsText).join('<br>');

/** The table of docs/errors.md, written from ERROR_CODES (`UPDATE_ERROR_DOCS=1` rewrites the page). */
function docTable(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, e]) => `| \`${code}\` | ${ERROR_STATUS[e.type]} | \`${e.type}\` | ${messageCell(e.message)} |`,
  );
  return [START, '| Code | Status | Type | Message |', '|---|---|---|---|', ...rows, END].join('\n');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(d.name) && !/\.(test|testing)\.ts$/.test(d.name) ? [path] : [];
  });
}

const CALL =
  /\berrors\.(invalid|notAllowed|unauthorized|forbidden|notFound|conflict|duplicate|tooManyRequests)\(|\bnew AppError\(/g;

/** Every place an error is raised without a code from the table: `file:line`. */
function sitesWithoutCode(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    if (/platform\/http\/error(s|-codes)\.ts$/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(CALL)) {
      if (m[1] === 'tooManyRequests') continue;
      const first = /^\s*'([a-z_]+)'/.exec(text.slice(m.index + m[0].length));
      if (first && Object.hasOwn(ERROR_CODES, first[1])) continue;
      found.push(`${relative(ROOT, file)}:${text.slice(0, m.index).split('\n').length}`);
    }
  }
  return found;
}

/**
 * Where every error already has a code: a module joins this list once moved, and stays clean.
 * (No ceiling on the rest: branches that add modules in parallel would trip it at every merge.)
 */
const CONVERTED =
  /^src\/(platform|modules\/(webhooks|uploads|settings|api-keys|notifications|messaging|categories|collections|product-labels|locales|sales-channels|dashboard|admin-panel|auth|audit|carts|checkout|customers|federation|payments|plugins|products|regions|sessions|stores|totals|fulfillment|shipping-options|stock-locations|inventory|marketplace|team|jobs|bulk|orders|returns|exchanges|claims|draft-orders|order-edits|order-transfers|promotions|taxes|price-lists|customer-groups|cart-pricing))\//;
/** A bare status from the framework or a plugin: its type is known, its meaning is not. */
const ALLOWED = [/^src\/platform\/http\/error-handler\.ts:/];

describe('error codes', () => {
  it('counts the errors still raised without a code, none in converted modules', () => {
    const sites = sitesWithoutCode();
    const byModule = new Map<string, number>();
    for (const s of sites) {
      const key = s.split('/').slice(0, 3).join('/');
      byModule.set(key, (byModule.get(key) ?? 0) + 1);
    }
    console.log(
      `error call sites without a code: ${sites.length}\n${[...byModule].map(([m, n]) => `  ${m}: ${n}`).join('\n')}`,
    );
    expect(sites.filter((s) => CONVERTED.test(s) && !ALLOWED.some((a) => a.test(s)))).toEqual([]);
  });

  it('lists every code on docs/errors.md', () => {
    const page = readFileSync(DOC, 'utf8');
    const current = page.slice(page.indexOf(START), page.indexOf(END) + END.length);
    if (process.env.UPDATE_ERROR_DOCS) writeFileSync(DOC, page.replace(current, docTable()));
    else expect(current).toBe(docTable());
  });

  it('fills the template whose holes the parameters name, for a code with several', () => {
    expect(errors.notAllowed('insufficient_inventory').toJSON()).toEqual({
      type: 'not_allowed',
      code: 'insufficient_inventory',
      message: 'Some variant does not have the required inventory',
    });
    expect(errors.notAllowed('insufficient_inventory', { item: 'iitem_1', location: 'sloc_1' }).message).toBe(
      'Not enough stock available for item iitem_1 at location sloc_1',
    );
    expect(
      errors.notAllowed('insufficient_inventory', { location: 'sloc_2', available: 0, item: 'iitem_1', asked: 3 })
        .message,
    ).toBe('Location sloc_2 has 0 of item iitem_1 available, 3 asked');
    expect(errors.notAllowed('promotion_budget_exhausted', { code: 'LAUNCH' }).message).toBe(
      'The promotion code LAUNCH has used up its campaign budget: remove it and complete the cart again',
    );
  });

  it('keeps codes lowercase snake_case', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
  });
});

describe('error codes over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 300_000);
  afterAll(() => t?.close());

  it('lists the codes in the OpenAPI document', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
    const error = doc.components.schemas.Error;
    expect(error.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
    expect(error['x-error-codes']).toContainEqual({
      code: 'webhook_not_found',
      status: 404,
      type: 'not_found',
      message: 'Webhook with id: {id} not found',
    });
  });

  it('answers with the code beside type and message', async () => {
    const res = await t.admin('GET', '/admin/webhooks/wh_missing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'webhook_not_found',
      message: 'Webhook with id: wh_missing not found',
    });
  });
});
