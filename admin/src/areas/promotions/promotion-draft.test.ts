import { describe, expect, it } from 'vitest';
import { EMPTY, draftOfPromotion, promotionBody } from './promotion-draft.ts';

const rule = (attribute: string, values: string[]) => ({ attribute, operator: 'in' as const, values, text: '' });

describe('the promotion form’s body', () => {
  it('makes a buy X get Y Medusa’s way: items, each, at most what is given', () => {
    const body = promotionBody(
      {
        ...EMPTY,
        code: ' B2G1 ',
        type: 'buyget',
        value: '100',
        buy_rules_min_quantity: '2',
        apply_to_quantity: '1',
        buy_rules: [rule('items.product.id', ['prod_shirt'])],
        target_rules: [rule('items.product.collection_id', ['pcol_summer'])],
        // Left over from a standard draft: a buy X get Y ignores them.
        target_type: 'order',
        allocation: 'across',
      },
      null,
    );
    expect(body).toMatchObject({
      code: 'B2G1',
      type: 'buyget',
      application_method: {
        type: 'percentage',
        value: 100,
        target_type: 'items',
        allocation: 'each',
        max_quantity: 1,
        apply_to_quantity: 1,
        buy_rules_min_quantity: 2,
        buy_rules: [{ attribute: 'items.product.id', operator: 'in', values: ['prod_shirt'] }],
        target_rules: [{ attribute: 'items.product.collection_id', operator: 'in', values: ['pcol_summer'] }],
      },
      rules: [],
    });
  });

  it('says what is missing before anything is sent', () => {
    const buyget = { ...EMPTY, code: 'X', type: 'buyget' as const, value: '100' };
    expect(() => promotionBody(buyget, null)).toThrow('Say which items count as bought (add a buy rule)');
    expect(() => promotionBody({ ...buyget, buy_rules_min_quantity: '1.5' }, null)).toThrow(
      'How many the customer buys',
    );
    expect(() => promotionBody({ ...EMPTY, code: 'X', value: '0' }, null)).toThrow('The percentage must be above 0');
    expect(() =>
      promotionBody({ ...EMPTY, code: 'X', value: '10', target_rules: [rule('items.product.id', [])] }, null),
    ).toThrow('Product: pick at least one value');
  });

  it('fills the form with a saved promotion and sends it back the same', () => {
    const saved = {
      code: 'FIVE',
      type: 'standard',
      status: 'active',
      is_automatic: false,
      campaign_id: null,
      application_method: {
        type: 'fixed',
        value: 500,
        currency_code: 'eur',
        target_type: 'items',
        allocation: 'each',
        max_quantity: 3,
        apply_to_quantity: null,
        buy_rules_min_quantity: null,
        target_rules: [{ attribute: 'items.product.tags.id', operator: 'in', values: [{ value: 'ptag_sale' }] }],
        buy_rules: [],
      },
      rules: [{ attribute: 'item_total', operator: 'gte', values: [{ value: '2500' }] }],
    };
    const draft = draftOfPromotion(saved);
    expect(draft).toMatchObject({ value: '5.00', max_quantity: '3', allocation: 'each' });
    expect(promotionBody(draft, null)).toMatchObject({
      code: 'FIVE',
      status: 'active',
      application_method: {
        type: 'fixed',
        value: 500,
        currency_code: 'eur',
        max_quantity: 3,
        target_rules: [{ attribute: 'items.product.tags.id', operator: 'in', values: ['ptag_sale'] }],
        buy_rules: [],
      },
      rules: [{ attribute: 'item_total', operator: 'gte', values: ['2500'] }],
    });
  });
});
