import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TYPES_FILE, adminTypesOf } from '../scripts/admin-types.ts';
import { startTestApp, type TestApp } from './app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 300_000);
afterAll(() => t?.close());

it('the panel’s checked-in API types match what the server documents now (npm run gen:admin-types)', async () => {
  const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
  const checkedIn = readFileSync(join(import.meta.dirname, '..', ADMIN_TYPES_FILE), 'utf8');
  // A failure here means a route's schema changed: run `npm run gen:admin-types` and commit the file.
  expect(checkedIn === (await adminTypesOf(doc))).toBe(true);
}, 120_000);
