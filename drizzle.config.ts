import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new numbered SQL file into migrations/ from the tables.
// Every table lives in a `tables.ts` (or `<topic>-tables.ts`) beside the code that owns it.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/platform/**/*tables.ts', './src/modules/**/*tables.ts'],
  out: './migrations',
});
