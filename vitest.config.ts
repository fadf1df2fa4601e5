import { defineConfig } from 'vitest/config';

// The project's own tests. (The conformance run itself builds its vitest config in harness/commands/run.ts.)
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
