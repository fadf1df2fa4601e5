// Drives vitest programmatically: our collector and vitest's own junit (and blob) reporters, vitest's
// console reporter left out (the CLI prints its own progress and summary).
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { BaseSequencer, createVitest, type Reporter, type TestSpecification, type Vitest } from 'vitest/node';
import type { ReporterName } from '../options.ts';
import { OutcomeCollector } from '../collector.ts';
import { DATA_DIR_KEY } from './suite-data.ts';
import type { TestCase } from '../../report/test-cases.ts';
import type { ReportOutcome } from '../../report/model.ts';
import { keyOfSuiteFile, SUITE_SUFFIX } from './workspace.ts';
import { JUNIT_FILE } from './write-reports.ts';
import { BufferedJUnitReporter } from './junit-reporter.ts';

const HERE = fileURLToPath(import.meta.url);
/** Running compiled (dist/…/vitest-driver.js) rather than from the TypeScript sources. */
const COMPILED = extname(HERE) === '.js';
const SUITE_RUNNER = join(dirname(HERE), `suite-runner${extname(HERE)}`);
/** The compiled tree (dist/): harness/run/ is two levels below it. */
const BUILD_ROOT = resolve(dirname(HERE), '../..') + sep;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface VitestSetup {
  /** The run's suite root, inside its private work directory (see workspace.ts); for a merge, the root the blobs name. */
  root: string;
  /**
   * The suite files this run wrote (workspace.files): vitest runs these and nothing else, by exact name.
   * Absent (a merge, which runs no file), any `*.adcp.test.ts` directly in the private root.
   */
  files?: readonly string[];
  /** Private to this run: the agents' data, vite's cache, vitest's raw junit XML. */
  dataDir: string;
  /** Where the blob goes (the other reports are written by write-reports.ts). */
  outDir: string;
  reporters: ReadonlySet<ReporterName>;
  concurrency: number;
  /**
   * A live run's judged outcomes by suite-file key, read when the run ends: the suites do not copy them
   * into vitest's meta unless a blob is written (a merge reads them from there).
   */
  outcomesOf?: (key: string) => ReportOutcome[] | undefined;
  /** A live run's test cases by suite-file key (the ones its suite ran), so the reporters need not make them again. */
  casesOf?: (key: string) => TestCase[] | undefined;
  shard?: { index: number; count: number };
}

export interface DrivenVitest {
  vitest: Vitest;
  collector: OutcomeCollector;
  /** vitest's own JUnit XML (in the private data dir: vitest truncates it at start and writes it line by line). */
  junitFile: string;
  /** What vitest printed (bounded), shown only when something went wrong. */
  log(): string;
}

export async function openVitest(setup: VitestSetup): Promise<DrivenVitest> {
  const collector = new OutcomeCollector(setup.outcomesOf, setup.casesOf);
  const reporters: Array<Reporter | [string, Record<string, unknown>]> = [collector];
  const junitFile = resolve(setup.dataDir, JUNIT_FILE);
  if (setup.reporters.has('junit')) {
    reporters.push(
      new BufferedJUnitReporter({
        outputFile: junitFile,
        suiteName: 'adcp-conformance',
        includeConsoleOutput: true,
        classnameTemplate: ({ filepath }: { filepath: string }) =>
          collector.names.get(keyOfSuiteFile(filepath)) ?? keyOfSuiteFile(filepath),
      }),
    );
  }
  if (setup.reporters.has('blob')) {
    const name = setup.shard ? `blob-${setup.shard.index}-${setup.shard.count}.json` : 'blob.json';
    reporters.push(['blob', { outputFile: resolve(setup.outDir, 'blob', name) }]);
  }
  const sink = new BoundedSink(16 * 1024);
  // vitest's logger hooks the process as if it were the vitest CLI: SIGINT / SIGTERM → process.exit()
  // (exit 130, no reports, sellers left running), an unhandled rejection → exit 1 (a "conformance
  // failure"). The harness handles those itself (commands/run.ts, cli.ts): drop vitest's hooks.
  const hooked = ['SIGINT', 'SIGTERM', 'exit', 'unhandledRejection'] as const;
  const before = new Map(hooked.map((event) => [event, new Set(process.listeners(event as 'SIGINT'))]));
  const vitest = await createVitest(
    'test',
    {
      config: false,
      root: setup.root,
      dir: setup.root,
      include: suitePatterns(setup.root, setup.files),
      watch: false,
      reporters: reporters as never,
      ...(setup.shard ? { shard: `${setup.shard.index}/${setup.shard.count}` } : {}),
      passWithNoTests: true,
      // The suites run in agent order (the order they are probed and judged in), not vitest's by file size.
      sequence: { sequencer: inOrderOf(setup.files ?? []) },
      pool: 'threads',
      isolate: false,
      // One worker: an agent's suite only replays its judged outcomes (cheap, and run in agent order as their
      // data arrives); a second worker thread would cost its own heap (~25 MiB RSS) and buy nothing.
      maxWorkers: 1,
      provide: { [DATA_DIR_KEY]: setup.dataDir },
      testTimeout: 30_000,
      // The suites' own runner (no expect / snapshot bookkeeping per test case: see suite-runner.ts).
      runner: SUITE_RUNNER,
      // Compiled build: the suite modules are plain JavaScript; Node loads them itself, untransformed.
      ...(COMPILED ? { server: { deps: { external: [new RegExp(`^${escapeRegExp(BUILD_ROOT)}`)] } } } : {}),
    },
    { logLevel: 'silent', cacheDir: join(setup.dataDir, '.vite'), clearScreen: false },
    { stdout: sink, stderr: sink },
  );
  for (const event of hooked) {
    for (const listener of process.listeners(event as 'SIGINT'))
      if (!before.get(event)?.has(listener)) process.off(event as 'SIGINT', listener);
  }
  return { vitest, collector, junitFile, log: () => sink.text() };
}

/** A sequencer keeping `files` in their given order (unknown files last); sharding is vitest's own. */
function inOrderOf(files: readonly string[]): new (ctx: Vitest) => BaseSequencer {
  const rank = new Map(files.map((f, i) => [resolve(f), i]));
  return class InOrder extends BaseSequencer {
    override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
      return [...specs].sort((a, b) => (rank.get(resolve(a.moduleId)) ?? files.length) - (rank.get(resolve(b.moduleId)) ?? files.length));
    }
  };
}

/** Include patterns (relative to the root) naming exactly the given files; a planted file matches none. */
export function suitePatterns(root: string, files: readonly string[] | undefined): string[] {
  if (!files) return [`*${SUITE_SUFFIX}`];
  return files.map((file) => {
    const name = relative(root, file);
    if (!name || name.startsWith('..') || isAbsolute(name) || /[\\/]/.test(name) || !name.endsWith(SUITE_SUFFIX)) {
      throw new Error(`suite file ${file} is not a ${SUITE_SUFFIX} file directly in the suite root ${root}`);
    }
    return name.replace(/[\\*?[\]{}()!@+|^$]/g, (c) => `\\${c}`); // a literal name, never a glob
  });
}

/** Suite-file keys vitest will run in this shard (all of them when not sharded), by vitest's own split. */
export async function keysInShard(vitest: Vitest): Promise<Set<string>> {
  let specs: TestSpecification[] = await vitest.globTestSpecifications();
  if (vitest.config.shard) {
    const Sequencer = vitest.config.sequence.sequencer;
    specs = await new Sequencer(vitest).shard(specs);
  }
  return new Set(specs.map((s) => keyOfSuiteFile(s.moduleId)));
}

/** Keeps the last `max` bytes written to it. */
class BoundedSink extends Writable {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly max: number) {
    super();
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.chunks.push(buf);
    this.size += buf.length;
    while (this.size > this.max && this.chunks.length > 1) this.size -= this.chunks.shift()?.length ?? 0;
    done();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
