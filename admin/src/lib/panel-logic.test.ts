import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, queryString, shouldRetry } from './api.ts';
import { errorFor, fieldOf } from './fields.ts';
import { fromMinor, toMinor } from './format.ts';
import { cancelDelete, flushDeletes, isPendingDelete, scheduleDelete } from './deferred-delete.ts';
import { bridgeRequest, isBundleUrl } from '../extensions/policy.ts';
import { configChanges, type ConfigField } from '../areas/plugins/types.ts';
import { eventsFromPicker, EVENT_GROUPS } from '../areas/settings/webhook-events.ts';
import { orderQuery } from '../areas/orders/query.ts';
import { lastDays } from '../areas/home/days.ts';

describe('API errors next to their field', () => {
  it('finds the field a validation or domain message names', () => {
    expect(fieldOf("Invalid request: Field 'variants.0.title' is required")).toBe('variants.0.title');
    expect(fieldOf("Invalid request (query): Expected type: 'integer' for field 'limit'")).toBe('limit');
    expect(fieldOf("Invalid request: Unrecognized fields: 'colour'")).toBe('colour');
    expect(fieldOf('Product with handle: linen, already exists.')).toBe('handle');
    expect(fieldOf('Product variant with sku: A-1, already exists.')).toBe('sku');
    expect(fieldOf('Order with id X has been canceled.')).toBeNull();
    expect(fieldOf("Invalid request: Field '(root)' must be object")).toBeNull();
  });

  it('matches an input by its name, nested paths included', () => {
    expect(errorFor('variants.0.title', 'variants.0.title')).toBe(true);
    expect(errorFor('variants.0.prices.1.amount', 'variants.0.prices')).toBe(true);
    expect(errorFor('title', 'subtitle')).toBe(false);
    expect(errorFor(null, 'title')).toBe(false);
    expect(new ApiError(400, 'invalid_data', 'Field \'email\' must match format "email"').field).toBe('email');
  });
});

describe('requests', () => {
  it('builds qs-style queries and skips empty values', () => {
    expect(
      queryString({ q: 'linen shirt', status: ['draft', 'published'], empty: '', none: undefined, limit: 0 }),
    ).toBe('?q=linen+shirt&status%5B%5D=draft&status%5B%5D=published&limit=0');
    expect(queryString({})).toBe('');
  });

  it('retries server trouble twice, never a 4xx', () => {
    expect(shouldRetry(0, new ApiError(404, 'not_found', 'x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(502, 'bad_gateway', 'x'))).toBe(true);
    expect(shouldRetry(2, new ApiError(502, 'bad_gateway', 'x'))).toBe(false);
  });

  it('turns order filters into the list call', () => {
    const q = orderQuery(
      new URLSearchParams('status=pending&payment_status=captured&email=a@b.c&from=2026-03-01&offset=40'),
    );
    expect(q).toMatchObject({
      status: ['pending'],
      payment_status: ['captured'],
      email: 'a@b.c',
      order: '-created_at',
      limit: 20,
      offset: 40,
    });
    expect(q['created_at[gte]']).toBe(new Date('2026-03-01T00:00:00').toISOString());
    expect(q['created_at[lte]']).toBeUndefined();
  });
});

describe('money', () => {
  it('converts typed decimals to minor units by the currency and back', () => {
    expect(toMinor('19.9', 'eur')).toBe(1990);
    expect(toMinor('19,90', 'eur')).toBe(1990);
    expect(toMinor('1500', 'jpy')).toBe(1500);
    expect(toMinor('12.345', 'kwd')).toBe(12345);
    expect(toMinor('abc', 'eur')).toBeNull();
    expect(toMinor('-1', 'eur')).toBeNull();
    expect(fromMinor(4900, 'eur')).toBe('49.00');
    expect(fromMinor(1500, 'jpy')).toBe('1500');
  });

  it('lists the chart days ending today', () => {
    expect(lastDays('2026-03-02', 3)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
  });
});

describe('delete with undo', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the delete after the window unless undone; leaving sends it at once with keepalive', () => {
    const sent: [string, boolean][] = [];
    scheduleDelete('a', (k) => sent.push(['a', k]), 6000);
    scheduleDelete('b', (k) => sent.push(['b', k]), 6000);
    scheduleDelete('c', (k) => sent.push(['c', k]), 6000);
    expect(isPendingDelete('a')).toBe(true);
    expect(cancelDelete('b')).toBe(true);
    vi.advanceTimersByTime(5999);
    expect(sent).toEqual([]);
    flushDeletes();
    expect(sent).toEqual([
      ['a', true],
      ['c', true],
    ]);
    vi.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(2);
    expect(cancelDelete('a')).toBe(false);
  });
});

describe('the extension bridge', () => {
  it('allows GETs under /admin/ only', () => {
    expect(bridgeRequest('/admin/orders?limit=0', 'GET')).toEqual({
      ok: true,
      path: '/admin/orders?limit=0',
      method: 'GET',
    });
    expect(bridgeRequest('/admin/products?q=linen%20shirt', 'GET')).toMatchObject({ ok: true });
    for (const path of [
      '/store/products',
      'https://evil.test/admin/x',
      '//evil.test/admin/x',
      '/admin/../auth/user/emailpass',
      '/admin/%2e%2e/auth',
      '/admin/%70anel/session',
      '/admin/%2570anel/session',
      '/admin/panel/session',
      '/admin\\..\\x',
      42,
    ]) {
      expect(bridgeRequest(path, 'GET').ok, String(path)).toBe(false);
    }
  });

  it('refuses writes unless the manifest declares the method', () => {
    expect(bridgeRequest('/admin/settings', 'POST')).toMatchObject({ ok: false, status: 403 });
    expect(bridgeRequest('/admin/settings', 'post', ['POST'])).toMatchObject({ ok: true, method: 'POST' });
    expect(bridgeRequest('/admin/settings/x', 'DELETE', ['POST'])).toMatchObject({ ok: false, status: 403 });
  });

  it("loads bundles only from the plugin's own admin-bundle route", () => {
    expect(isBundleUrl('/admin/plugins/plg_1/admin-bundle', 'plg_1')).toBe(true);
    expect(isBundleUrl('/admin/plugins/plg_2/admin-bundle', 'plg_1')).toBe(false);
    expect(isBundleUrl('https://cdn.test/admin/plugins/plg_1/admin-bundle', 'plg_1')).toBe(false);
  });
});

describe('plugin configuration', () => {
  const fields: ConfigField[] = [
    { key: 'token', label: 'Token', type: 'string', secret: true },
    { key: 'limit', label: 'Limit', type: 'number' },
    { key: 'on', label: 'On', type: 'boolean' },
    { key: 'name', label: 'Name', type: 'string' },
  ];

  it('sends only what changed; a masked secret is never sent back unless retyped', () => {
    const before = { token: '••••1234', limit: 5, on: false, name: 'x' };
    expect(configChanges(fields, before, {})).toEqual({});
    expect(configChanges(fields, before, { limit: '5', on: false, name: 'x' })).toEqual({});
    expect(configChanges(fields, before, { token: 'new-secret-value', limit: '7', on: true, name: '' })).toEqual({
      token: 'new-secret-value',
      limit: 7,
      on: true,
      name: null,
    });
  });
});

describe('webhook event picker', () => {
  it('sends whole groups as group.* and everything as *', () => {
    const all = new Set(Object.entries(EVENT_GROUPS).flatMap(([g, names]) => names.map((n) => `${g}.${n}`)));
    expect(eventsFromPicker(all)).toEqual(['*']);
    const orders = new Set(EVENT_GROUPS.order.map((n) => `order.${n}`));
    orders.add('cart.abandoned');
    expect(eventsFromPicker(orders)).toEqual(['order.*', 'cart.abandoned']);
  });
});
