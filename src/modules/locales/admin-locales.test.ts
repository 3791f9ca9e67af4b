import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';

let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp({ env: { STORE_LOCALES: 'en-US,fr-FR,de-DE' } });
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

describe('GET /admin/locales', () => {
  it('lists the shop’s languages, paged and filtered, and reads one by code', async () => {
    const all = await sdk.admin.locale.list();
    expect(all).toEqual({
      locales: [
        { code: 'en-US', name: 'American English' },
        { code: 'fr-FR', name: 'French (France)' },
        { code: 'de-DE', name: 'German (Germany)' },
      ],
      count: 3,
      limit: 50,
      offset: 0,
    });
    expect((await sdk.admin.locale.list({ q: 'french' })).locales.map((l) => l.code)).toEqual(['fr-FR']);
    expect((await sdk.admin.locale.list({ code: ['de-DE'], limit: 1 })).locales.map((l) => l.code)).toEqual(['de-DE']);
    expect((await sdk.admin.locale.list({ limit: 1, offset: 2 })).locales.map((l) => l.code)).toEqual(['de-DE']);
    expect((await sdk.admin.locale.retrieve('fr-FR')).locale).toEqual({ code: 'fr-FR', name: 'French (France)' });
    const missing = await t.admin('GET', '/admin/locales/xx-XX');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: 'not_found', code: 'locale_not_found' });
  });
});
