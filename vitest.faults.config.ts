import { defineConfig } from 'vitest/config';

/** `npm run test:faults`: real server processes, a PostgreSQL cluster of the test's own, signals. */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
