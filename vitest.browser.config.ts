import { defineConfig } from 'vitest/config';

/** `npm run test:browser`: the admin panel end to end in Debian's Chromium (playwright-core), one file at a time. */
export default defineConfig({
  test: {
    include: ['admin/e2e/**/*.e2e.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
