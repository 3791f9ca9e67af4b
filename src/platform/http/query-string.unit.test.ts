import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { parseQuery } from './query-string.ts';

const byQs = (q: string) => qs.parse(q, { depth: 2, arrayLimit: 200, parameterLimit: 200 });

describe('parseQuery', () => {
  it('gives what qs gives, whichever parser reads the query', () => {
    const queries = [
      'limit=20&offset=0',
      'a=1&a=2',
      'a',
      'a=',
      '=1',
      '&&a=1&',
      'q=hello+world',
      'q=%E2%82%AC',
      'q=%ZZ',
      'q=%',
      'toString=1&limit=2',
      '__proto__=1',
      'hasOwnProperty=x',
      'constructor=1',
      'fields=*variants.calculated_price,+metadata',
      'a.b=1',
      'a+b=1',
      'x=%00',
      'id[]=a&id[]=b',
      'id%5B%5D=a',
      'id%5b0%5d=a',
      'created_at[gte]=2026-01-01&q=x',
      'a[b][c][d]=1',
      Array.from({ length: 250 }, (_, i) => `k${i}=${i}`).join('&'),
    ];
    for (const q of queries) expect({ ...parseQuery(q) }, q).toEqual(byQs(q));
  });

  it('never puts a key on Object.prototype', () => {
    parseQuery('__proto__=1&constructor[prototype][x]=1');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
