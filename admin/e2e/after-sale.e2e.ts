import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/database.ts';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

const DOCS = path.resolve(import.meta.dirname, '../../docs');
let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
let regionId: string;
let channelId: string;

interface Variant {
  id: string;
  inventory_quantity: number;
}

beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('after-sale'), launchBrowser()]);
  regionId = (
    await shop.admin<{ region: { id: string } }>('POST', '/admin/regions', {
      name: 'Europe',
      currency_code: 'eur',
      countries: ['de', 'fr'],
    })
  ).region.id;
  channelId = (await shop.admin<{ sales_channels: { id: string }[] }>('GET', '/admin/sales-channels')).sales_channels[0]
    .id;
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function product(title: string, stock: number, amount = 2000): Promise<Variant> {
  const res = await shop.admin<{ product: { variants: Variant[] } }>('POST', '/admin/products', {
    title,
    status: 'published',
    sales_channels: [{ id: channelId }],
    variants: [
      {
        title: 'One size',
        prices: [{ currency_code: 'eur', amount }],
        inventory_quantity: stock,
        manage_inventory: true,
      },
    ],
  });
  return res.product.variants[0];
}

const stockOf = async (id: string) =>
  (
    await rows<{ q: number }>(
      shop.database.db,
      sql`select inventory_quantity as q from product_variants where id = ${id}`,
    )
  )[0].q;

/** An order of `quantity` × the variant, captured and fulfilled in full (shipped to the customer). */
async function shippedOrder(variantId: string, quantity: number) {
  const cart = await shop.store<{ cart: { id: string } }>('POST', '/store/carts', {
    region_id: regionId,
    email: 'shopper@example.com',
    items: [{ variant_id: variantId, quantity }],
  });
  const placed = await shop.store<{ order: { id: string; items: { id: string }[] } }>(
    'POST',
    `/store/carts/${cart.cart.id}/complete`,
  );
  const id = placed.order.id;
  await shop.admin('POST', `/admin/orders/${id}/capture`, {});
  await shop.admin('POST', `/admin/orders/${id}/fulfillments`, {
    items: [{ item_id: placed.order.items[0].id, quantity }],
  });
  return id;
}

interface Summary {
  paid_total: number;
  refunded_total: number;
  pending_difference: number;
  current_order_total: number;
}
const summaryOf = async (id: string) =>
  (await shop.admin<{ order: { summary: Summary } }>('GET', `/admin/orders/${id}`)).order.summary;

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name, exact: true }).click();

describe('after the sale, in the panel', () => {
  it('returns two of three shipped items with a preview, receives them into stock, refunds the difference', async () => {
    const variant = await product('Wool scarf', 10);
    const cart = await shop.store<{ cart: { id: string } }>('POST', '/store/carts', {
      region_id: regionId,
      email: 'shopper@example.com',
      items: [{ variant_id: variant.id, quantity: 3 }],
    });
    const placed = await shop.store<{ order: { id: string; items: { id: string }[] } }>(
      'POST',
      `/store/carts/${cart.cart.id}/complete`,
    );
    const id = placed.order.id;
    await shop.admin('POST', `/admin/orders/${id}/capture`, {});
    await shop.admin('POST', `/admin/orders/${id}/fulfillments`, {
      items: [{ item_id: placed.order.items[0].id, quantity: 3 }],
    });

    await page.goto(`${shop.url}/app/orders/${id}`);
    const returns = page.getByRole('form', { name: 'Return items' });
    await returns.getByLabel(/Wool scarf: quantity to return/).fill('2');
    await returns.getByRole('button', { name: 'Preview return' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('expected back').waitFor();
    expect(await preview.textContent()).toContain('Wool scarf: 2 expected back');
    expect(await preview.textContent()).toContain('Refund due once received€40.00');
    await screenshot(page, '40-return-preview');
    // For the docs: the return card with its preview, as the operator sees it before confirming.
    await page
      .getByRole('region', { name: 'Return items' })
      .screenshot({ path: path.join(DOCS, 'after-sale-return-preview.png') });
    await page.getByRole('button', { name: 'Confirm return' }).click();
    await page.getByText('Return requested').first().waitFor();

    await page.getByRole('button', { name: 'Receive all (restock)' }).click();
    await page.getByText('Return received and restocked').waitFor();
    expect(await stockOf(variant.id)).toBe(9);
    // 40.00 came back: the refund form offers it.
    await page
      .getByRole('form', { name: 'Refund' })
      .getByLabel(/Amount/)
      .fill('40.00');
    await page.getByRole('form', { name: 'Refund' }).getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Refund recorded').waitFor();
    const order = await shop.admin<{ order: { summary: { refunded_total: number; pending_difference: number } } }>(
      'GET',
      `/admin/orders/${id}`,
    );
    expect(order.order.summary).toMatchObject({ refunded_total: 4000, pending_difference: 0 });
    await page
      .getByText(/Return request confirmed by admin@/)
      .first()
      .waitFor();
    await screenshot(page, '41-return-received');
    await page
      .getByRole('region', { name: 'Timeline' })
      .screenshot({ path: path.join(DOCS, 'after-sale-timeline.png') });
    expect(errors).toEqual([]);
  }, 180_000);

  it('builds a draft order with a custom line and converts it into a paid order', async () => {
    const variant = await product('Linen shirt', 5);
    await nav('Draft orders');
    const form = page.getByRole('form', { name: 'New draft order' });
    await form.getByLabel('Customer email').fill('phone-order@example.com');
    await form.getByLabel('Region').selectOption({ label: 'Europe (EUR)' });
    await form.getByLabel('Variant id (empty: a custom line)').fill(variant.id);
    await form.getByLabel('Quantity').fill('2');
    await form.getByRole('button', { name: 'Add line' }).click();
    const second = form.locator('fieldset').nth(1);
    await second.getByLabel('Custom title').fill('Engraving');
    await second.getByLabel(/Unit price/).fill('12.50');
    await form.getByRole('button', { name: 'Create draft' }).click();
    await page
      .getByText('Draft order created')
      .waitFor()
      .catch(async (err) => {
        throw new Error(
          `${err}: ${(await page.locator('body').innerText()).slice(0, 1500)} ${errors.join(' | ')} ${page.url()}`,
        );
      });
    await page
      .getByRole('cell', { name: '2 × Linen shirt, 1 × Engraving' })
      .waitFor()
      .catch(async (err) => {
        throw new Error(
          `${err}: ${(await page.locator('body').innerText()).slice(0, 1500)} ${errors.join(' | ')} ${page.url()}`,
        );
      });
    await screenshot(page, '42-draft-orders', { quiet: true, docs: 'after-sale-draft-orders' });
    await page.getByRole('button', { name: /Convert draft #\d+ to a paid order/ }).click();
    await page.getByText('Draft converted to an order').waitFor();
    await page.getByRole('heading', { name: /Order #\d+/ }).waitFor();
    const url = page.url();
    const id = url.slice(url.lastIndexOf('/') + 1);
    const order = await shop.admin<{
      order: { status: string; total: number; payment_status: string; summary: { paid_total: number } };
    }>('GET', `/admin/orders/${id}`);
    expect(order.order).toMatchObject({ status: 'pending', total: 5250, payment_status: 'captured' });
    expect(order.order.summary.paid_total).toBe(5250);
    expect(await stockOf(variant.id)).toBe(3);
    await screenshot(page, '43-draft-converted', { quiet: true, docs: 'after-sale-draft-converted' });
    expect(errors).toEqual([]);
  }, 180_000);

  it('exchanges one item for a dearer one: the preview says what the customer owes, a payment request follows', async () => {
    const tee = await product('Cotton tee', 10);
    const sweater = await product('Merino sweater', 4, 3500);
    const id = await shippedOrder(tee.id, 2);

    await page.goto(`${shop.url}/app/orders/${id}`);
    const form = page.getByRole('form', { name: 'Exchange items', exact: true });
    await form.getByLabel(/Cotton tee: quantity back/).fill('1');
    await form.getByLabel('New item to send').fill('Merino');
    await form.getByRole('button', { name: 'Pick Merino sweater · One size' }).click();
    await form.getByRole('button', { name: 'Preview exchange' }).click();
    const card = page.getByRole('region', { name: 'Exchange items', exact: true });
    const preview = card.getByRole('region', { name: 'Preview' });
    await preview.getByText('taken from stock').waitFor();
    const text = await preview.textContent();
    expect(text).toContain('Exchange difference+€15.00');
    expect(text).toContain('Customer owes€15.00');
    expect(text).toContain('Cotton tee: 1 expected back');
    expect(text).toContain('Merino sweater: 1 taken from stock (new line)');
    expect(text).toContain('the customer is asked to pay €15.00');
    // Nothing moved yet: the preview is the server's, the order is as it was.
    expect(await stockOf(sweater.id)).toBe(4);
    expect((await summaryOf(id)).pending_difference).toBe(0);
    await card.screenshot({ path: path.join(DOCS, 'after-sale-exchange-preview.png') });

    await card.getByRole('button', { name: 'Confirm exchange' }).click();
    await page.getByText('Exchange confirmed').first().waitFor();
    expect(await stockOf(sweater.id)).toBe(3);
    expect(await summaryOf(id)).toMatchObject({ current_order_total: 5500, pending_difference: 1500 });
    const owed = page.getByRole('region', { name: 'Awaiting payment' });
    await owed.getByText('Payment request').waitFor();
    expect(await owed.textContent()).toContain('Payment request €15.00');
    await screenshot(page, '44-exchange-owed');
    await owed.screenshot({ path: path.join(DOCS, 'after-sale-exchange-owed.png') });

    // The customer paid by bank transfer: the desk marks the request paid.
    await owed.getByRole('button', { name: 'Mark as paid' }).click();
    await page
      .getByRole('dialog', { name: /Mark €15.00 as paid/ })
      .getByRole('button', { name: 'Mark as paid' })
      .click();
    await page.getByText('Marked as paid').waitFor();
    await owed.waitFor({ state: 'detached' });
    expect(await summaryOf(id)).toMatchObject({ paid_total: 5500, pending_difference: 0 });

    // The tee comes back sellable: stock, no money.
    await page.getByRole('button', { name: 'Receive all (restock)' }).click();
    await page.getByText('Return received and restocked').waitFor();
    expect(await stockOf(tee.id)).toBe(9);
    expect((await summaryOf(id)).pending_difference).toBe(0);
    await page
      .getByText(/Exchange confirmed by admin@/)
      .first()
      .waitFor();
    expect(errors).toEqual([]);
  }, 180_000);

  it('claims a damaged item for a refund: the preview credits it, the refund settles it', async () => {
    const mug = await product('Stoneware mug', 6, 1200);
    const id = await shippedOrder(mug.id, 3);
    await page.goto(`${shop.url}/app/orders/${id}`);
    const form = page.getByRole('form', { name: 'Claim', exact: true });
    await form.getByLabel('Claim type').selectOption('refund');
    await form.getByLabel(/Stoneware mug: quantity claimed/).fill('1');
    await form.getByLabel('Stoneware mug: reason').selectOption('production_failure');
    await form.getByRole('button', { name: 'Preview claim' }).click();
    const card = page.getByRole('region', { name: 'Claim', exact: true });
    const preview = card.getByRole('region', { name: 'Preview' });
    await preview.getByText('claimed').waitFor();
    expect(await preview.textContent()).toContain('Refund due€12.00');
    expect(await preview.textContent()).toContain('Stoneware mug: 1 claimed');
    await card.getByRole('button', { name: 'Confirm claim' }).click();
    await page.getByText('Claim confirmed').first().waitFor();
    expect(await summaryOf(id)).toMatchObject({ current_order_total: 2400, pending_difference: -1200 });
    await page
      .getByRole('form', { name: 'Refund' })
      .getByLabel(/Amount/)
      .fill('12.00');
    await page.getByRole('form', { name: 'Refund' }).getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Refund recorded').waitFor();
    expect(await summaryOf(id)).toMatchObject({ refunded_total: 1200, pending_difference: 0 });
    expect(await stockOf(mug.id)).toBe(3);
    expect(errors).toEqual([]);
  }, 180_000);

  it('converts a draft to an order awaiting payment: the order asks the customer for its total', async () => {
    const variant = await product('Canvas tote', 5, 1800);
    const { draft_order: draft } = await shop.admin<{ draft_order: { id: string; display_id: number } }>(
      'POST',
      '/admin/draft-orders',
      { email: 'phone-order@example.com', region_id: regionId, items: [{ variant_id: variant.id, quantity: 2 }] },
    );
    await page.goto(`${shop.url}/app/draft-orders`);
    await page.getByRole('button', { name: `Convert draft #${draft.display_id} to an order awaiting payment` }).click();
    await page.getByText('Draft converted, awaiting payment').waitFor();
    await page.getByRole('heading', { name: /Order #\d+/ }).waitFor();
    const owed = page.getByRole('region', { name: 'Awaiting payment' });
    await owed.getByText('Payment request').waitFor();
    expect(await owed.textContent()).toContain('Payment request €36.00');
    const url = page.url();
    const summary = await summaryOf(url.slice(url.lastIndexOf('/') + 1));
    expect(summary).toMatchObject({ paid_total: 0, pending_difference: 3600 });
    expect(await stockOf(variant.id)).toBe(3);
    expect(errors).toEqual([]);
  }, 180_000);

  it('counts a requested return against what can still go back; an exchange charges the shipping chosen both ways', async () => {
    const shirt = await product('Flannel shirt', 10);
    await product('Canvas shoes', 5, 2000);
    const id = await shippedOrder(shirt.id, 3);
    await shop.admin('POST', '/admin/shipping-options', { name: 'Courier out', region_id: regionId, amount: 500 });
    await shop.admin('POST', '/admin/shipping-options', {
      name: 'Return label',
      region_id: regionId,
      amount: 300,
      rules: [{ attribute: 'is_return', operator: 'eq', value: 'true' }],
    });
    // One shirt asked back through the API, not arrived yet.
    const line = (await shop.admin<{ order: { items: { id: string }[] } }>('GET', `/admin/orders/${id}`)).order
      .items[0];
    const ret = await shop.admin<{ return: { id: string } }>('POST', '/admin/returns', { order_id: id });
    await shop.admin('POST', `/admin/returns/${ret.return.id}/request-items`, {
      items: [{ id: line.id, quantity: 1 }],
    });
    await shop.admin('POST', `/admin/returns/${ret.return.id}/request`, {});

    await page.goto(`${shop.url}/app/orders/${id}`);
    const returns = page.getByRole('form', { name: 'Return items' });
    await returns.getByLabel('Flannel shirt: quantity to return (up to 2)').waitFor();
    expect(await returns.textContent()).toContain('3 fulfilled, 1 awaited on a requested return');

    const form = page.getByRole('form', { name: 'Exchange items', exact: true });
    await form.getByLabel('Flannel shirt: quantity back (up to 2)').fill('1');
    await form.getByLabel('New item to send').fill('Canvas');
    await form.getByRole('button', { name: 'Pick Canvas shoes · One size' }).click();
    await form.getByLabel('Return shipping (items coming back)').selectOption({ label: 'Return label (€3.00)' });
    await form.getByLabel('Outbound shipping (new items)').selectOption({ label: 'Courier out (€5.00)' });
    await form.getByRole('button', { name: 'Preview exchange' }).click();
    const card = page.getByRole('region', { name: 'Exchange items', exact: true });
    const preview = card.getByRole('region', { name: 'Preview' });
    await preview.getByText('taken from stock').waitFor();
    // Same price out as back: what is owed is the shipping both ways.
    expect(await preview.textContent()).toContain('Customer owes€8.00');
    await card.screenshot({ path: path.join(DOCS, 'after-sale-exchange-shipping.png') });
    await card.getByRole('button', { name: 'Confirm exchange' }).click();
    await page.getByText('Exchange confirmed').first().waitFor();
    expect((await summaryOf(id)).pending_difference).toBe(800);
    expect(errors).toEqual([]);
  }, 180_000);
});
