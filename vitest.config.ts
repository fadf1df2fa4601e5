import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Half again as many workers as CPUs (3 on the 2-core CI machine; vitest's default is one fewer than the
// CPUs): most test files wait on sellers, sockets and timeouts, not on the CPU, and the harness's timeouts
// measure the seller, not its own load (harness/connect/seller-clock.ts). Measured on 2 cores: 1 worker
// ~1,100 s wall; 3 workers 677 s wall for 1,286 CPU-seconds (the CPU is now the floor: ~645 s on 2 cores).
const WORKERS = Math.min(8, Math.max(2, Math.round(availableParallelism() * 1.5)));

// The longest files start first. vitest runs files it has no timings for (a fresh clone, CI) largest first,
// and the matrix shards are four-line files that take ~3 minutes each (a seller per fault): they started
// last and ran alone at the end (measured on 2 cores: the last ~190 s of a 1,036 s run, a worker idle).
const LONGEST = [/[\\/]test[\\/]matrix[\\/]matrix-\d+\.test\.ts$/, /[\\/]test[\\/]run[\\/]storyboards-cli\.test\.ts$/];
const isLongest = (spec: TestSpecification): boolean => LONGEST.some((re) => re.test(spec.moduleId));
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(isLongest), ...sorted.filter((spec) => !isLongest(spec))];
  }
}

// The project's own tests. (The conformance run itself builds its vitest config in harness/commands/run.ts.)
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    maxWorkers: WORKERS,
    // Worker threads, not forked processes: with a graph per file (isolated, below), forks cost 1,650 CPU-s
    // against threads' 1,363 (2 cores, a shared machine); with shared graphs the two measured alike (383 s /
    // 712 CPU-s forks, 381 s / 716 threads).
    pool: 'threads',
    // A worker thread runs its files one after another in one module graph, not a fresh graph per file:
    // each file reloaded the harness, the MCP SDK, zod and Ajv (vitest's "import" 61–73 s per run, 19 s
    // now). Measured on 2 cores, the whole suite back to back: 464 s wall and 863 CPU-s isolated, 415–421
    // s and 769–775 CPU-s not. What a file leaves behind is the harness's own content-keyed caches (the
    // threads end at 0.2–0.9 GB of heap; the whole process peaks at ~1.8 GB). Tests that change
    // process-wide state restore it (env, spies: restoreMocks below).
    isolate: false,
    restoreMocks: true,
    // The validators the tests precompile (megabytes of generated JavaScript) load natively, not through
    // vite's transform: test/setup/native-precompiled.ts.
    server: { deps: { external: [/[\\/]adcp-conformance-native-precompiled-[^\\/]+[\\/]/] } },
    sequence: { sequencer: LongestFirst },
    // dist/ rebuilt when stale, so the CLI runs the build and not the sources through tsx; the AdCP
    // validators the in-process tests use, precompiled once per run; the run's scratch directory; the seller
    // snapshot sellers start from (see the files).
    globalSetup: ['test/setup/build.ts', 'test/setup/precompiled-schemas.ts', 'test/setup/tmp-root.ts', 'test/setup/seller-snapshot.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Under GitHub Actions, the runs these tests make must not append their summaries to the job's own.
    env: { GITHUB_STEP_SUMMARY: '' },
  },
});
