import { describe, expect, it } from 'vitest';
import { batchOf, gridRows } from './price-grid-logic.ts';
import type { ListPrice } from './types.ts';

const saved: ListPrice[] = [
  { id: 'p1', variant_id: 'v1', currency_code: 'eur', amount: 1990, min_quantity: null, max_quantity: null, rules: {} },
  { id: 'p2', variant_id: 'v1', currency_code: 'eur', amount: 1500, min_quantity: 5, max_quantity: 9, rules: {} },
  { id: 'p3', variant_id: 'v2', currency_code: 'jpy', amount: 900, min_quantity: null, max_quantity: null, rules: {} },
];

describe('price grid', () => {
  it('shows amounts in the currency’s units and bounds as text', () => {
    const rows = gridRows(saved);
    expect(rows.map((r) => [r.amount, r.min_quantity, r.max_quantity])).toEqual([
      ['19.90', '', ''],
      ['15.00', '5', '9'],
      ['900', '', ''],
    ]);
  });

  it('saves only what changed: new rows created, edited ones updated, removed ones deleted', () => {
    const rows = gridRows(saved);
    expect(batchOf(saved, rows)).toEqual({ create: [], update: [], delete: [] });
    const edited = [
      { ...rows[0], amount: '18,50', region_id: 'reg_1' },
      rows[2],
      {
        key: 'n',
        variant_id: 'v2',
        currency_code: 'jpy',
        amount: '800',
        min_quantity: '10',
        max_quantity: '',
        region_id: '',
      },
    ];
    expect(batchOf(saved, edited)).toEqual({
      create: [
        { variant_id: 'v2', currency_code: 'jpy', amount: 800, min_quantity: 10, max_quantity: null, rules: {} },
      ],
      update: [
        {
          id: 'p1',
          variant_id: 'v1',
          currency_code: 'eur',
          amount: 1850,
          min_quantity: null,
          max_quantity: null,
          rules: { region_id: 'reg_1' },
        },
      ],
      delete: ['p2'],
    });
  });
});
