import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, pageRequest, toPage } from './paging.ts';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i}` }));

describe('products list paging without a count per keystroke', () => {
  it('counts only the unfiltered first page; everything else probes one row more', () => {
    expect(pageRequest({ q: '', status: '', offset: 0 })).toEqual({
      counted: true,
      query: { q: '', status: undefined, limit: PAGE_SIZE, offset: 0, count: undefined },
    });
    for (const view of [
      { q: 'l', status: '', offset: 0 },
      { q: '', status: 'draft', offset: 0 },
      { q: '', status: '', offset: 50 },
    ]) {
      const { counted, query } = pageRequest(view);
      expect(counted).toBe(false);
      expect(query).toMatchObject({ count: false, limit: PAGE_SIZE + 1, offset: view.offset });
    }
    expect(pageRequest({ q: '', status: 'draft', offset: 0 }).query.status).toEqual(['draft']);
  });

  it('reads the next page from the count or from the probe row, and never shows the probe row', () => {
    const view = { q: '', status: '', offset: 0 };
    expect(toPage({ products: rows(50), count: 120 }, view, true)).toMatchObject({ hasMore: true, count: 120 });
    expect(toPage({ products: rows(20), count: 20 }, view, true)).toMatchObject({ hasMore: false, count: 20 });
    const probed = toPage({ products: rows(51), count: null }, { ...view, q: 'x' }, false);
    expect(probed).toMatchObject({ hasMore: true, count: null });
    expect(probed.rows).toHaveLength(50);
    expect(toPage({ products: rows(50), count: null }, { ...view, q: 'x' }, false).hasMore).toBe(false);
  });
});
