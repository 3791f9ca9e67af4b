import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../lib/api.ts';
import { addressFrom, codeOf, geoLists, geoZonesFrom, priceRows, pricesFrom } from './shipping-forms.ts';

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected a throw');
}

describe("a zone's geo zones as lists of countries and provinces", () => {
  const existing = [
    { id: 'fgz_de', type: 'country' as const, country_code: 'de' },
    { id: 'fgz_by', type: 'province' as const, country_code: 'de', province_code: 'de-by' },
    { id: 'fgz_hh', type: 'city' as const, country_code: 'de', province_code: 'de-hh', city: 'Hamburg' },
  ];

  it('shows the countries and provinces back as the fields hold them', () => {
    expect(geoLists(existing)).toEqual({ countries: 'de', provinces: 'de-by' });
  });

  it('keeps the ids of entries still listed and the cities as they are; reads provinces by their ISO prefix', () => {
    expect(geoZonesFrom('DE, at;at', 'de-by de-hh', existing)).toEqual([
      { id: 'fgz_de', type: 'country', country_code: 'de' },
      { type: 'country', country_code: 'at' },
      { id: 'fgz_by', type: 'province', country_code: 'de', province_code: 'de-by' },
      { type: 'province', country_code: 'de', province_code: 'de-hh' },
      { id: 'fgz_hh', type: 'city', country_code: 'de', province_code: 'de-hh', city: 'Hamburg' },
    ]);
    expect(geoZonesFrom('', '', [])).toEqual([]);
  });

  it('names the field of an entry it cannot read', () => {
    expect(thrown(() => geoZonesFrom('germany', '')).field).toBe('countries');
    expect(thrown(() => geoZonesFrom('de', 'bavaria')).field).toBe('provinces');
  });
});

describe("an option's prices as rows", () => {
  const currencyOf = (id: string) => (id === 'reg_eu' ? 'eur' : undefined);

  it('turns €4.95, free from €50 and a region price into the API prices and back', () => {
    const rows = [
      { where: 'cur:eur', amount: '4.95', operator: '' as const, threshold: '' },
      { where: 'cur:eur', amount: '0', operator: 'gte' as const, threshold: '50' },
      { where: 'reg:reg_eu', amount: '3,50', operator: '' as const, threshold: '' },
    ];
    const prices = pricesFrom(rows, currencyOf);
    expect(prices).toEqual([
      { currency_code: 'eur', amount: 495 },
      { currency_code: 'eur', amount: 0, rules: [{ attribute: 'item_total', operator: 'gte', value: 5000 }] },
      { region_id: 'reg_eu', amount: 350 },
    ]);
    expect(
      priceRows([
        { currency_code: 'eur', region_id: null, amount: 495, price_rules: [] },
        {
          currency_code: 'eur',
          region_id: null,
          amount: 0,
          price_rules: [{ attribute: 'item_total', operator: 'gte', value: 5000 }],
        },
        { currency_code: 'eur', region_id: 'reg_eu', amount: 350, price_rules: [] },
      ]),
    ).toEqual([
      { where: 'cur:eur', amount: '4.95', operator: '', threshold: '' },
      { where: 'cur:eur', amount: '0.00', operator: 'gte', threshold: '50.00' },
      { where: 'reg:reg_eu', amount: '3.50', operator: '', threshold: '' },
    ]);
  });

  it('names the row and field it cannot read', () => {
    const bad = (row: Partial<Parameters<typeof pricesFrom>[0][number]>) =>
      thrown(() =>
        pricesFrom(
          [
            { where: 'cur:eur', amount: '1', operator: '', threshold: '' },
            { where: 'cur:eur', amount: '1', operator: '', threshold: '', ...row },
          ],
          currencyOf,
        ),
      ).field;
    expect(bad({ amount: 'free' })).toBe('prices.1.amount');
    expect(bad({ operator: 'gt', threshold: '' })).toBe('prices.1.threshold');
    expect(bad({ where: 'reg:reg_gone' })).toBe('prices.1.where');
  });

  it("makes an option's code from its name", () => {
    expect(codeOf('Collect in the shop')).toBe('collect-in-the-shop');
    expect(codeOf('Über Nacht!')).toBe('uber-nacht');
    expect(codeOf('…')).toBe('option');
  });
});

describe("a location's address from its fields", () => {
  it('is none when every field is empty, else every field with the country in lower case and empty ones null', () => {
    expect(addressFrom({ address_1: ' ', postal_code: '', city: '', country_code: '' })).toBeUndefined();
    expect(
      addressFrom({ address_1: ' Hafenstraße 1 ', postal_code: '', city: 'Hamburg', country_code: 'DE ' }),
    ).toEqual({
      address_1: 'Hafenstraße 1',
      postal_code: null,
      city: 'Hamburg',
      country_code: 'de',
    });
  });
});
