import { defineConfig } from 'vitest/config';

/** `npm run test:multi`: 3 shop + 2 marketplace processes on one PostgreSQL (DATABASE_URL) and Redis. */
export default defineConfig({
  test: {
    include: ['test/multi/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
