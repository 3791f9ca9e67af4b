/** Builds the app in-process (no port), reads its /openapi.json and writes the panel's API types. */
import { writeFileSync } from 'node:fs';
import { startTestApp } from '../test/app.ts';
import { ADMIN_TYPES_FILE, adminTypesOf } from './admin-types.ts';

const t = await startTestApp();
try {
  const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
  writeFileSync(ADMIN_TYPES_FILE, await adminTypesOf(doc));
  console.log(`wrote ${ADMIN_TYPES_FILE}`);
} finally {
  await t.close();
}
