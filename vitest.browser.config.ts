import { defineConfig } from 'vitest/config';

/**
 * `npm run test:browser`: the admin panel end to end in Debian's Chromium (playwright-core), two
 * files at a time: each file starts its own shop (own data dir, port 0) and browser, and most of a
 * file's time is spent waiting on the page, so a second file fills the idle core (CI's budget).
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
