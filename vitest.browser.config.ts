import { defineConfig } from 'vitest/config';

/**
 * `npm run test:browser`: the admin panel end to end in Debian's Chromium (playwright-core), two
 * files at a time: each file starts its own shop (own data dir, port 0) and browser. With this tier
 * one file at a time, a whole `.ci/run` kept 2 cores only ~60 % busy and took 33 minutes (budget 25).
 */
export default defineConfig({
  test: {
    include: ['admin/e2e/**/*.e2e.ts'],
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
