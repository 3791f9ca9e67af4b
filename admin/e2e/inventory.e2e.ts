import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
let itemId: string;
let locationName: string;

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

const text = (s: string) => s.replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('inventory'), launchBrowser()]);
  const post = (p: string, body: unknown) => shop.admin<Json>('POST', p, body);
  await post('/admin/products', {
    title: 'Blue mug',
    status: 'published',
    variants: [
      {
        title: 'One size',
        sku: 'MUG-BLUE',
        prices: [{ currency_code: 'eur', amount: 1200 }],
        inventory_quantity: 10,
        manage_inventory: true,
      },
    ],
  });
  const item = (await shop.admin<Json>('GET', '/admin/inventory-items?sku[]=MUG-BLUE')).inventory_items[0];
  itemId = item.id;
  const level = item.location_levels[0];
  locationName = (await shop.admin<Json>('GET', `/admin/stock-locations/${level.location_id}`)).stock_location.name;
  await post('/admin/stock-locations', { name: 'Shop Altona' });
  await post('/admin/reservations', {
    inventory_item_id: item.id,
    location_id: level.location_id,
    quantity: 2,
    description: 'Phone order, collected Friday',
  });
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe('Inventory', () => {
  it('lists the product’s item with its stock, and adjusts its level from 10 to 7 with a reason', async () => {
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Inventory' }).click();
    const list = page.getByRole('table', { name: 'Inventory items' });
    await list.waitFor();
    const row = list.locator('tbody tr', { hasText: 'MUG-BLUE' });
    // SKU, title, locations, stocked, reserved, available
    expect(text(await row.innerText())).toBe('MUG-BLUE One size 1 10 2 8');

    await row.getByRole('link', { name: 'MUG-BLUE' }).click();
    const levels = page.getByRole('table', { name: 'Levels' });
    await levels.waitFor();
    // The level's row names its location once the locations have loaded (until then it shows the id).
    await levels.locator('tbody tr', { hasText: locationName }).first().waitFor();
    expect(text(await levels.locator('tbody tr').first().innerText())).toMatch(
      new RegExp(`^${locationName} 10 2 0 8 `),
    );
    await levels.getByRole('button', { name: `Adjust stock at ${locationName}` }).click();
    const form = page.getByRole('form', { name: `Adjust stock at ${locationName}` });
    await form.getByLabel('New stocked quantity').fill('7');
    await form.getByLabel('Reason').fill('Stocktake: 3 broken in the back room');
    await screenshot(page, '61-inventory-adjust', { quiet: true });
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    expect(text(await levels.locator('tbody tr').first().innerText())).toMatch(new RegExp(`^${locationName} 7 2 0 5 `));
    const history = page.getByRole('table', { name: 'Stock adjustments' });
    expect(text(await history.locator('tbody tr').first().innerText())).toMatch(
      new RegExp(`${locationName} 10 7 Stocktake: 3 broken in the back room admin@`),
    );
    // The reason is on the item, where another client can read it.
    const item = (await shop.admin<Json>('GET', `/admin/inventory-items/${itemId}`)).inventory_item;
    expect(item.location_levels[0].stocked_quantity).toBe(7);
    expect(item.metadata.stock_adjustments).toEqual([
      expect.objectContaining({ from: 10, to: 7, reason: 'Stocktake: 3 broken in the back room' }),
    ]);
    // Another location is offered (the item is not stocked there yet).
    const add = page.getByRole('form', { name: 'Stock at another location' });
    expect(await add.getByLabel('Location').innerText()).toContain('Shop Altona');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await screenshot(page, '60-inventory-item', { quiet: true, docs: 'admin-inventory' });

    await page.getByRole('link', { name: '← Inventory' }).click();
    await list.waitFor();
    // The list may show what it held before the adjustment while it reads again: wait for the new figures.
    const adjusted = list.locator('tbody tr', { hasText: 'MUG-BLUE' });
    await expect
      .poll(async () => text(await adjusted.innerText()), { timeout: 10_000 })
      .toBe('MUG-BLUE One size 1 7 2 5');
    expect(errors).toEqual([]);
  });

  it('lists reservations, moves one to a location that has the units free, and deletes it, which frees its units', async () => {
    // The shop keeps 3 mugs.
    const altona = (await shop.admin<Json>('GET', '/admin/stock-locations?limit=50')).stock_locations.find(
      (l: Json) => l.name === 'Shop Altona',
    );
    await shop.admin('POST', `/admin/inventory-items/${itemId}/location-levels`, {
      location_id: altona.id,
      stocked_quantity: 3,
    });
    await page.getByRole('link', { name: 'Reservations' }).click();
    const table = page.getByRole('table', { name: 'Reservations' });
    await table.waitFor();
    const row = table.locator('tbody tr', { hasText: 'MUG-BLUE' });
    expect(text(await row.innerText())).toMatch(
      new RegExp(`^MUG-BLUE One size ${locationName} 2 by hand Phone order, collected Friday `),
    );
    await screenshot(page, '62-inventory-reservations', { quiet: true });

    // Moved ahead of time: 4 are more than the shop has free (refused, nothing moves), 2 fit.
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = table.getByRole('form', { name: 'Edit reservation' });
    const where = form.getByLabel('Location');
    expect(await where.locator('option').allInnerTexts()).toEqual([`${locationName} (7 free)`, 'Shop Altona (3 free)']);
    await where.selectOption({ label: 'Shop Altona (3 free)' });
    await form.getByLabel('Quantity').fill('4');
    await form.getByRole('button', { name: 'Save reservation' }).click();
    await form.getByText(`Not enough stock available for item ${itemId} at location ${altona.id}`).waitFor();
    const reservation = async () => (await shop.admin<Json>('GET', '/admin/reservations')).reservations[0];
    expect(await reservation()).toMatchObject({ location_id: expect.not.stringMatching(altona.id), quantity: 2 });
    await form.getByLabel('Quantity').fill('2');
    await form.getByLabel('Description').fill('Phone order, collected in Altona');
    await screenshot(page, '63-inventory-reservation-move', { quiet: true });
    await form.getByRole('button', { name: 'Save reservation' }).click();
    await form.waitFor({ state: 'detached' });
    await expect
      .poll(async () => text(await row.innerText()))
      .toMatch(/^MUG-BLUE One size Shop Altona 2 by hand Phone order, collected in Altona /);
    expect(await reservation()).toMatchObject({
      location_id: altona.id,
      quantity: 2,
      description: 'Phone order, collected in Altona',
    });
    const levels = (await shop.admin<Json>('GET', `/admin/inventory-items/${itemId}`)).inventory_item.location_levels;
    expect(
      levels.map((l: Json) => [l.location_id === altona.id, l.stocked_quantity, l.reserved_quantity]).sort(),
    ).toEqual([
      [false, 7, 0],
      [true, 3, 2],
    ]);

    await row.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this reservation?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('No reservations: nothing is held.').waitFor();
    const item = (await shop.admin<Json>('GET', `/admin/inventory-items/${itemId}`)).inventory_item;
    expect(item.reserved_quantity).toBe(0);
    expect(errors).toEqual([]);
  });
});
