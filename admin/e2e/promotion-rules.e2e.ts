import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { VIEWER, launchBrowser, login, newPage, screenshot as shoot, startShop, type Shop } from './harness.ts';

/**
 * The pricing panel beyond the basics: buy X get Y with its buy and target rules, conditions in
 * plain words, editing a promotion, Settings → Taxes' tax-inclusive switches (per currency and
 * per region, through price preferences) and an override rate for a shipping option.
 */

const DOCS = path.resolve(import.meta.dirname, '../../docs');

/** The toasts hidden through the element's style (the panel's CSP refuses an injected stylesheet). */
async function quietly(p: Page, take: () => Promise<unknown>): Promise<void> {
  const toasts = (show: boolean) =>
    p.evaluate((on) => {
      const el = document.querySelector<HTMLElement>('.toasts');
      if (el) el.style.display = on ? '' : 'none';
    }, show);
  await toasts(false);
  await take();
  await toasts(true);
}
const card = (p: Page, name: string): Locator => p.getByRole('region', { name, exact: true });

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
const ids = { shirt: '', mug: '', summer: '', vip: '', region: '', option: '' };
const eur = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(n);

beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('promotion-rules'), launchBrowser()]);
  const { collection } = await shop.admin<{ collection: { id: string } }>('POST', '/admin/collections', {
    title: 'Summer',
  });
  ids.summer = collection.id;
  for (const [key, title] of [
    ['shirt', 'Shirt'],
    ['mug', 'Mug'],
  ] as const) {
    const { product } = await shop.admin<{ product: { id: string } }>('POST', '/admin/products', {
      title,
      status: 'published',
      collection_id: collection.id,
      variants: [{ title: 'One', prices: [{ currency_code: 'eur', amount: 2000 }] }],
    });
    ids[key] = product.id;
  }
  ids.vip = (
    await shop.admin<{ customer_group: { id: string } }>('POST', '/admin/customer-groups', { name: 'VIP' })
  ).customer_group.id;
  ids.region = (
    await shop.admin<{ region: { id: string } }>('POST', '/admin/regions', {
      name: 'Deutschland',
      currency_code: 'eur',
      countries: ['de'],
    })
  ).region.id;
  ids.option = (
    await shop.admin<{ shipping_option: { id: string } }>('POST', '/admin/shipping-options', {
      name: 'Standard delivery',
      region_id: ids.region,
      amount: 595,
    })
  ).shipping_option.id;
  await shop.admin('POST', '/admin/tax-regions', {
    country_code: 'de',
    default_tax_rate: { name: 'VAT', code: 'DE19', rate: 19 },
  });
  await shop.admin('POST', '/admin/promotions', {
    code: 'SAVE10',
    type: 'standard',
    status: 'active',
    application_method: { type: 'percentage', value: 10, target_type: 'items', allocation: 'across' },
  });
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

type Rule = { attribute: string; operator: string; values: { value: string }[] };
type Promotion = {
  id: string;
  code: string;
  type: string;
  application_method: Record<string, unknown> & { target_rules: Rule[]; buy_rules: Rule[] };
  rules: Rule[];
};
const ruleOf = (r: Rule) => [r.attribute, r.operator, r.values.map((v) => v.value)];

describe('Promotions: buy X get Y, rules in words, editing', () => {
  it('creates a buy 2 get 1 with buy rules, target rules and a customer-group condition', async () => {
    await page.goto(`${shop.url}/app/promotions/new`);
    const form = page.getByRole('form', { name: 'New promotion' });
    await form.getByLabel('Code', { exact: true }).fill('B2G1');
    await form.getByLabel('Status', { exact: true }).selectOption('active');
    await form.getByLabel('Kind').selectOption('buyget');
    await form.getByLabel('Customer buys at least').fill('2');
    await form.getByRole('button', { name: 'Add buy rule' }).click();
    await form.getByLabel('Buy rule 1: values').selectOption(['Shirt']);
    await form.getByLabel('Customer gets').fill('1');
    await form.getByRole('button', { name: 'Add target' }).click();
    await form.getByLabel('Target 1: looks at').selectOption({ label: 'Collection' });
    await form.getByLabel('Target 1: values').selectOption(['Summer']);
    await form.getByRole('button', { name: 'Add condition' }).click();
    await form.getByLabel('Condition 1: values').selectOption(['VIP']);
    const words =
      'Buy 2 items where product is Shirt, get 1 item where collection is Summer at 100 % off, when customer group is VIP.';
    await form.getByText(words).waitFor();
    // The whole form, down to the sentence under it.
    await quietly(page, () =>
      form
        .screenshot({ path: path.join(DOCS, 'admin-promotion-buyget.png') })
        .then(() => shoot(page, '63-promotion-buyget')),
    );
    await form.getByRole('button', { name: 'Create promotion' }).click();
    await page.getByText('Promotion created').waitFor();
    await page
      .getByRole('cell', {
        name: 'Buy 2 items where product is Shirt, get 1 item where collection is Summer at 100 % off',
      })
      .waitFor();
    await page.getByRole('cell', { name: 'Customer group is VIP' }).waitFor();

    const { promotions } = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions?code=B2G1');
    expect(promotions).toHaveLength(1);
    const [p] = promotions;
    expect(p.type).toBe('buyget');
    expect(p.application_method).toMatchObject({
      type: 'percentage',
      value: 100,
      target_type: 'items',
      allocation: 'each',
      apply_to_quantity: 1,
      buy_rules_min_quantity: 2,
      max_quantity: 1,
    });
    expect(p.application_method.buy_rules.map(ruleOf)).toEqual([['items.product.id', 'in', [ids.shirt]]]);
    expect(p.application_method.target_rules.map(ruleOf)).toEqual([
      ['items.product.collection_id', 'in', [ids.summer]],
    ]);
    expect(p.rules.map(ruleOf)).toEqual([['customer.groups.id', 'in', [ids.vip]]]);
  });

  it('refuses a buy X get Y without what is bought beside the form, and nothing is made', async () => {
    await page.goto(`${shop.url}/app/promotions/new`);
    const form = page.getByRole('form', { name: 'New promotion' });
    await form.getByLabel('Code', { exact: true }).fill('HALF');
    await form.getByLabel('Kind').selectOption('buyget');
    await form.getByRole('button', { name: 'Create promotion' }).click();
    await form.getByText('Say which items count as bought (add a buy rule)').waitFor();
    const { promotions } = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions?code=HALF');
    expect(promotions).toEqual([]);
  });

  it('edits a promotion: its value, a target rule and an item-total condition, read back in words', async () => {
    await page.goto(`${shop.url}/app/promotions`);
    await page.getByRole('link', { name: 'SAVE10' }).click();
    await card(page, 'In words').getByText('10 % off items, spread across.').waitFor();
    const form = page.getByRole('form', { name: 'Edit promotion' });
    await form.getByLabel('Percentage').fill('15');
    await form.getByRole('button', { name: 'Add target' }).click();
    await form.getByLabel('Target 1: looks at').selectOption({ label: 'Collection' });
    await form.getByLabel('Target 1: values').selectOption(['Summer']);
    await form.getByRole('button', { name: 'Add condition' }).click();
    await form.getByLabel('Condition 1: looks at').selectOption({ label: 'Item total' });
    await form.getByLabel('Condition 1: amount').fill('50');
    await form.getByRole('button', { name: 'Save promotion' }).click();
    await page.getByText('SAVE10 saved').waitFor();
    const words = `15 % off items where collection is Summer, spread across, when item total is at least ${eur(50)}.`;
    await card(page, 'In words').getByText(words).waitFor();
    await quietly(page, () => shoot(page, '64-promotion-edit', { docs: 'admin-promotion-edit' }));

    const { promotions } = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions?code=SAVE10');
    expect(promotions[0].application_method).toMatchObject({ type: 'percentage', value: 15, allocation: 'across' });
    expect(promotions[0].application_method.target_rules.map(ruleOf)).toEqual([
      ['items.product.collection_id', 'in', [ids.summer]],
    ]);
    expect(promotions[0].rules.map(ruleOf)).toEqual([['item_total', 'gte', ['5000']]]);
    // The form shows what was saved: the condition's amount back in euros.
    await expect.poll(() => form.getByLabel('Condition 1: amount').inputValue()).toBe('50.00');

    // A condition removed is gone from the promotion.
    await form.getByRole('button', { name: 'Remove condition 1' }).click();
    await form.getByRole('button', { name: 'Save promotion' }).click();
    await card(page, 'In words').getByText('15 % off items where collection is Summer, spread across.').waitFor();
    const after = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions?code=SAVE10');
    expect(after.promotions[0].rules).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('Rule pickers in a shop of hundreds: searched on the server, a page at a time', () => {
  it('finds a product among 250 by search, keeps it picked, and pages on', async () => {
    const fillers = Array.from({ length: 250 }, (_, i) => ({
      title: `Lamp ${String(i + 1).padStart(3, '0')}`,
      status: 'published',
      variants: [{ title: 'One', prices: [{ currency_code: 'eur', amount: 1000 }] }],
    }));
    const { created } = await shop.admin<{ created: { id: string; title: string }[] }>(
      'POST',
      '/admin/products/batch',
      { create: [{ ...fillers[0], title: 'Zebra rug' }, ...fillers] },
    );
    const zebra = created.find((p) => p.title === 'Zebra rug')?.id ?? '';
    const { count } = await shop.admin<{ count: number }>('GET', '/admin/products?limit=1');
    expect(count).toBeGreaterThan(250);

    await page.goto(`${shop.url}/app/promotions/new`);
    const form = page.getByRole('form', { name: 'New promotion' });
    await form.getByLabel('Code', { exact: true }).fill('ZEBRA5');
    await form.getByRole('button', { name: 'Add target' }).click();
    const values = form.getByLabel('Target 1: values');
    // One page, and the count of the whole list (the old pickers read the first 200, and stopped).
    await form.getByText(`50 of ${count} shown: type to search`, { exact: false }).waitFor();
    expect(await values.locator('option').count()).toBe(50);
    await form.getByRole('button', { name: 'Target 1: more values' }).click();
    await expect.poll(() => values.locator('option').count()).toBe(100);

    // The search runs on the server: the one match, picked, stays picked when the search is cleared.
    await form.getByLabel('Target 1: search').fill('zebra');
    await expect.poll(() => values.locator('option').allTextContents()).toEqual(['Zebra rug']);
    await values.selectOption(['Zebra rug']);
    await form.getByLabel('Target 1: search').fill('');
    await expect.poll(() => values.locator('option:checked').allTextContents()).toEqual(['Zebra rug']);
    await form.getByLabel('Percentage').fill('5');
    await form.getByText('5 % off items where product is Zebra rug, spread across.').waitFor();
    await form.getByRole('button', { name: 'Create promotion' }).click();
    await page.getByText('Promotion created').waitFor();

    const { promotions } = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions?code=ZEBRA5');
    expect(promotions[0].application_method.target_rules.map(ruleOf)).toEqual([['items.product.id', 'in', [zebra]]]);
    // The list names it too, reading only the ids its rules hold.
    await page.getByRole('cell', { name: 'ZEBRA5' }).waitFor();
    await page.getByRole('link', { name: 'ZEBRA5' }).click();
    await card(page, 'In words').getByText('5 % off items where product is Zebra rug, spread across.').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('Campaigns', () => {
  it('edits a campaign’s budget limit in place and deletes it, its promotions staying', async () => {
    const { campaign } = await shop.admin<{ campaign: { id: string } }>('POST', '/admin/campaigns', {
      name: 'Winter',
      campaign_identifier: 'WINTER',
      budget: { type: 'usage', limit: 10 },
    });
    const { promotions } = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions?code=SAVE10');
    await shop.admin('POST', `/admin/campaigns/${campaign.id}/promotions`, { add: [promotions[0].id] });
    await page.goto(`${shop.url}/app/promotions`);
    const campaigns = card(page, 'Campaigns');
    await campaigns.getByRole('cell', { name: '0 of 10 uses' }).waitFor();
    await campaigns.getByRole('button', { name: 'Edit Winter' }).click();
    const form = page.getByRole('form', { name: 'Edit Winter' });
    await form.getByLabel('Budget limit').fill('25');
    await form.getByRole('button', { name: 'Save campaign' }).click();
    await page.getByText('Winter saved').waitFor();
    await campaigns.getByRole('cell', { name: '0 of 25 uses' }).waitFor();
    const { campaign: saved } = await shop.admin<{ campaign: { budget: { limit: number; used: number } } }>(
      'GET',
      `/admin/campaigns/${campaign.id}`,
    );
    expect(saved.budget).toMatchObject({ limit: 25, used: 0 });

    await campaigns
      .getByRole('row', { name: /Winter/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('dialog', { name: 'Delete campaign Winter?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Winter deleted').waitFor();
    const left = await shop.admin<{ campaigns: unknown[] }>('GET', '/admin/campaigns');
    expect(left.campaigns).toEqual([]);
    const kept = await shop.admin<{ promotions: (Promotion & { campaign_id: string | null })[] }>(
      'GET',
      '/admin/promotions?code=SAVE10',
    );
    expect(kept.promotions[0].campaign_id).toBeNull();
    expect(errors).toEqual([]);
  });
});

type Preference = { id: string; attribute: string; value: string; is_tax_inclusive: boolean };
const preferences = async () =>
  (await shop.admin<{ price_preferences: Preference[] }>('GET', '/admin/price-preferences')).price_preferences
    .map((p) => [p.attribute, p.value, p.is_tax_inclusive])
    .sort();

describe('Settings → Taxes: prices including tax, a shipping override', () => {
  it('switches tax-inclusive prices per currency and per region through price preferences', async () => {
    await page.goto(`${shop.url}/app/settings/taxes`);
    const prices = card(page, 'Prices include tax');
    const euro = prices.getByRole('switch', { name: 'Prices in EUR include tax' });
    expect(await euro.isChecked()).toBe(false);
    await euro.check();
    await page.getByText('EUR prices saved').waitFor();
    expect(await preferences()).toEqual([['currency_code', 'eur', true]]);

    const region = prices.getByLabel('Prices in Deutschland');
    await region.getByRole('option', { name: 'As EUR: include tax' }).waitFor({ state: 'attached' });
    await region.selectOption('no');
    await page.getByText('Deutschland prices saved').waitFor();
    expect(await preferences()).toEqual([
      ['currency_code', 'eur', true],
      ['region_id', ids.region, false],
    ]);
    await quietly(page, () =>
      prices
        .screenshot({ path: path.join(DOCS, 'admin-tax-inclusive.png') })
        .then(() => shoot(page, '65-tax-inclusive')),
    );

    // Back to the currency's choice: the region's own preference goes.
    await region.selectOption('currency');
    await expect.poll(preferences).toEqual([['currency_code', 'eur', true]]);
    await euro.uncheck();
    await expect.poll(preferences).toEqual([['currency_code', 'eur', false]]);
  });

  it('adds an override rate for a shipping option, named in the list', async () => {
    await page.goto(`${shop.url}/app/settings/taxes`);
    await page.getByRole('link', { name: 'DE', exact: true }).click();
    const form = page.getByRole('form', { name: 'New override rate' });
    await form.getByLabel('Name', { exact: true }).fill('Reduced shipping');
    await form.getByLabel('Code', { exact: true }).fill('DE7-SHIP');
    await form.getByLabel('Rate', { exact: true }).fill('7');
    await form.getByLabel('Standard delivery').check();
    await form.getByRole('button', { name: 'Add override rate' }).click();
    await page.getByText('Override rate created').waitFor();
    await page.getByRole('cell', { name: 'shipping Standard delivery' }).waitFor();
    const { tax_regions } = await shop.admin<{
      tax_regions: {
        tax_rates: { code: string; rate: number; rules: { reference: string; reference_id: string }[] }[];
      }[];
    }>('GET', '/admin/tax-regions?country_code=de');
    expect(tax_regions[0].tax_rates.find((t) => t.code === 'DE7-SHIP')).toMatchObject({
      rate: 7,
      rules: [{ reference: 'shipping_option', reference_id: ids.option }],
    });
    expect(errors).toEqual([]);
  });

  it('picks a tax region’s provider: the built-in rates, or one whose plugin is gone, shown so', async () => {
    const { tax_regions } = await shop.admin<{ tax_regions: { id: string; provider_id: string }[] }>(
      'GET',
      '/admin/tax-regions?country_code=de',
    );
    const de = tax_regions[0];
    expect(de.provider_id).toBe('tp_system');
    await shop.admin('POST', `/admin/tax-regions/${de.id}`, { provider_id: 'tp_gone' });
    await page.goto(`${shop.url}/app/settings/taxes`);
    await page.getByRole('row', { name: /DE19/ }).getByRole('cell', { name: 'tp_gone' }).waitFor();
    await page.getByRole('link', { name: 'DE', exact: true }).click();
    const choice = page.getByRole('form', { name: 'Provider choice' });
    const select = choice.getByLabel('Tax provider', { exact: true });
    await expect.poll(() => select.locator('option:checked').textContent()).toBe('tp_gone (not running)');
    await select.selectOption({ label: 'Built-in tax rates' });
    await choice.getByRole('button', { name: 'Save provider' }).click();
    await page.getByText('Tax provider saved').waitFor();
    const after = await shop.admin<{ tax_region: { provider_id: string } }>('GET', `/admin/tax-regions/${de.id}`);
    expect(after.tax_region.provider_id).toBe('tp_system');
    expect(errors).toEqual([]);
  });

  it('is read-only for a viewer', async () => {
    const viewer = await newPage(browser);
    await login(viewer.page, shop, VIEWER, '/app/settings/taxes');
    expect(
      await card(viewer.page, 'Prices include tax')
        .getByRole('switch', { name: 'Prices in EUR include tax' })
        .isDisabled(),
    ).toBe(true);
    await viewer.page.goto(`${shop.url}/app/promotions`);
    await viewer.page.getByRole('link', { name: 'B2G1' }).click();
    await card(viewer.page, 'In words')
      .getByText(/^Buy 2 items/)
      .waitFor();
    expect(await viewer.page.getByRole('form', { name: 'Edit promotion' }).count()).toBe(0);
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
  });
});
