import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/**/*.test.ts',
      'bench/**/*.test.ts',
      'admin/src/**/*.test.ts',
      'plugin-sdk/**/*.test.ts',
    ],
    // Tiers of their own (npm run test:faults, test:multi, test:fuzz): real processes, longer runs.
    exclude: ['test/faults/**', 'test/multi/**', 'test/fuzz/**', '**/node_modules/**'],
    // Workers keep their (slow to create) database across files; each file empties it first.
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: true,
  },
});
