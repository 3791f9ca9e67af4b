import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new numbered SQL file into migrations/ from the tables.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/platform/db/schema.ts',
  out: './migrations',
});
