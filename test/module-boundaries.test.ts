import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkBoundaries,
  checkTypedReads,
  listedReads,
  type Ownership,
  readOwnership,
  readSources,
} from './module-boundaries.ts';

const src = join(import.meta.dirname, '..', 'src');

/**
 * Production files still naming other modules' tables in SQL text (path under src/ → why). Each
 * is a reader a renamed column breaks only at run time; convert it and take it off.
 */
const TYPED_READS_PENDING = new Map<string, string>([]);

describe('module boundaries: the tables a module reads that another module owns', () => {
  it('every module lists, in its README, each other module’s table its production files name', () => {
    const own = readOwnership(src);
    const { files, readmes } = readSources(src);
    // The tree is really read: a module with no tables found would pass for the wrong reason.
    expect(own.owner.get('orders')).toBe('orders');
    expect(own.owner.get('product_tags')).toBe('product-labels');
    expect(own.owner.get('outbox')).toBe('platform');
    expect(files.length).toBeGreaterThan(300);
    expect(readmes.size).toBeGreaterThan(40);
    const violations = checkBoundaries(files, readmes, own).map((v) => v.message);
    expect(violations).toEqual([]);
  });

  it('production files read other modules’ tables through the owners’ drizzle tables, not by name in SQL text', () => {
    const own = readOwnership(src);
    const { files } = readSources(src);
    expect(files.length).toBeGreaterThan(300);
    const violations = checkTypedReads(files, own, TYPED_READS_PENDING).map((v) => v.message);
    expect(violations).toEqual([]);
  });

  const own: Ownership = {
    owner: new Map([
      ['carts', 'carts'],
      ['orders', 'orders'],
      ['order_line_items', 'orders'],
      ['outbox', 'platform'],
    ]),
    exports: new Map([['modules/orders/tables.ts', new Map([['orderLineItems', 'order_line_items']])]]),
  };
  const readme = (list: string) => `# carts\n\n- **Owns**: \`carts\`.\n- **Reads other modules' tables**: ${list}\n`;
  const file = (text: string, tableImports: { module: string; names: string[]; file: string }[] = []) => ({
    module: 'carts',
    path: 'modules/carts/planted.ts',
    text,
    tableImports,
  });

  it('fails on a planted read of another module’s table in SQL that the README does not list', () => {
    const planted = file('export const q = sql`select c.id from carts c join orders o on o.cart_id = c.id`;');
    const [violation, ...rest] = checkBoundaries([planted], new Map([['carts', readme('none.')]]), own);
    expect(rest).toEqual([]);
    expect(violation.message).toMatch(/modules\/carts\/planted\.ts reads `orders` \(owned by orders\)/);
    // Listed, it passes.
    expect(checkBoundaries([planted], new Map([['carts', readme('`orders` (orders).')]]), own)).toEqual([]);
  });

  it('fails on a planted import of another module’s drizzle table, and on a write (into, update)', () => {
    const imported = file('db.select().from(orderLineItems)', [
      { module: 'orders', names: ['orderLineItems'], file: 'modules/orders/tables.ts' },
    ]);
    const writes = file("sql`update orders set status = 'x'`; sql`insert into order_line_items (id) values (1)`");
    const messages = checkBoundaries([imported, writes], new Map([['carts', readme('none.')]]), own).map(
      (v) => v.message,
    );
    expect(messages).toEqual([
      expect.stringMatching(/reads `order_line_items`/),
      expect.stringMatching(/reads `orders`/),
    ]);
  });

  it('ignores comments, its own tables and platform tables; refuses a README without the line or listing its own', () => {
    const quiet = file('// joined from orders before\n/* update orders */ sql`select * from carts, outbox`');
    expect(checkBoundaries([quiet], new Map([['carts', readme('none.')]]), own)).toEqual([]);
    expect(checkBoundaries([quiet], new Map([['carts', '# carts\n']]), own)[0].message).toMatch(/has no line/);
    expect(checkBoundaries([quiet], new Map([['carts', readme('`carts`.')]]), own)[0].message).toMatch(/its own table/);
    expect(checkBoundaries([quiet], new Map([['carts', readme('`ghosts`.')]]), own)[0].message).toMatch(
      /no module declares/,
    );
  });

  it('fails on a planted file naming another module’s table in SQL text, unless allowed; and on a stale allowance', () => {
    const raw = file('export const q = sql`select o.currency_code from orders o where o.id = $1`;');
    const typed = file(`export const q = sql\`select \${o.currency_code} from \${from(o)} where \${o.id} = $1\`;`, [
      { module: 'orders', names: ['orders'], file: 'modules/orders/tables.ts' },
    ]);
    const ownOnly = file('sql`select * from carts, outbox` // was: from orders');
    const [violation, ...rest] = checkTypedReads([raw, typed, ownOnly], own, new Map());
    expect(rest).toEqual([]);
    expect(violation.message).toMatch(/modules\/carts\/planted\.ts names `orders` \(orders\) in SQL text/);
    const allowed = new Map([['modules/carts/planted.ts', 'not converted yet']]);
    expect(checkTypedReads([raw], own, allowed)).toEqual([]);
    expect(checkTypedReads([typed], own, allowed)[0].message).toMatch(/names none: take it off the list/);
  });

  it('reads a README list up to the next bullet, over wrapped lines', () => {
    const text = "- **Reads other modules' tables**: `a` (x);\n  `b` (y).\n- **Routes**: `c`.\n";
    expect([...listedReads(text)!]).toEqual(['a', 'b']);
    expect(listedReads('# nothing\n')).toBeUndefined();
  });
});
