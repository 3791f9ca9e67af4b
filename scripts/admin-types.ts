/**
 * The admin panel's API types, generated from the server's OpenAPI document by openapi-typescript
 * (6.x: it writes the file as text, where 7.x needs TypeScript 5's compiler API, which TypeScript 7
 * no longer ships). Only the surfaces the panel calls are kept: /admin, /auth and the panel's /app.
 */
import openapiTS, { type OpenAPI3 } from 'openapi-typescript';

export const ADMIN_TYPES_FILE = 'admin/src/api/schema.d.ts';

const PANEL_PATHS = /^\/(admin|auth|app)(\/|$)/;

const HEADER = `/**
 * Generated from /openapi.json by \`npm run gen:admin-types\`; do not edit by hand.
 * test/admin-types.test.ts fails when this file and the server's document differ.
 */

`;

export async function adminTypesOf(doc: OpenAPI3): Promise<string> {
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).filter(([path]) => PANEL_PATHS.test(path)));
  const body = await openapiTS({ ...doc, paths, info: { ...doc.info, version: '0' } }, { exportType: true });
  return HEADER + body;
}
