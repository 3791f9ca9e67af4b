import { defineConfig } from 'vitest/config';

/** `npm run test:fuzz`: generated requests for every operation (FUZZ_SEED, FUZZ_RUNS per operation). */
export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
