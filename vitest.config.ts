import { defineConfig } from 'vitest/config';

// The project's own tests. (The conformance run itself builds its vitest config in harness/commands/run.ts.)
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Under GitHub Actions, the runs these tests make must not append their summaries to the job's own.
    env: { GITHUB_STEP_SUMMARY: '' },
  },
});
