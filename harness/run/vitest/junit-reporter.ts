// vitest's own JUnit reporter, with its three per-test-case costs taken out (the XML it writes is the same):
//   - it writes every line with its own awaited fs write (thousands of syscalls per agent): here the lines
//     are gathered in memory and written once, when the run ends;
//   - it formats every <testcase time> with Number#toLocaleString and options, which builds a new ICU
//     formatter per call (~0.1 ms each, more than the rest of a test case): here one formatter is reused;
//   - it escapes every attribute through two regular expressions (one of them built anew per value) that
//     remove characters XML forbids or discourages: here a value none of them could match skips them
//     (0.45 of 20 CPU-s of a 64-agent run's main thread), and any other goes through vitest's own code.
// Only passing and skipped test cases take the fast path; a failed case (rare: a conformance failure, a
// suite that did not load) goes through vitest's own writer unchanged.
import { writeFile } from 'node:fs/promises';
import type { Vitest } from 'vitest/node';
import { JUnitReporter } from 'vitest/node';
import type { TestModule } from 'vitest/node';

type Task = Parameters<JUnitReporter['writeTasks']>[0][number];
type Options = ConstructorParameters<typeof JUnitReporter>[0];
/** The reporter's private plumbing this subclass redirects (vitest 4's names). */
interface Plumbing {
  baseLog: (text: string) => Promise<void>;
  logger: { baseLog: (text: string) => Promise<void>; log(text: string): Promise<void> };
  options: Options & { includeConsoleOutput: boolean };
}

// vitest's executionTime(): ms → seconds, no grouping, up to 10 fraction digits.
const SECONDS = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 10 });

/**
 * Every character vitest's removeInvalidXMLCharacters could remove: the control characters XML forbids,
 * U+007F–U+0084, U+0086–U+009F, U+FDD0–U+FDEF, U+FFFD–U+FFFF, and any surrogate (its lone ones and the
 * noncharacter pairs): a value without one is left as it is.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const MAYBE_REMOVED = /[\0-\x08\v\f\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFDD0-\uFDEF\uFFFD-\uFFFF]/;

/** vitest's escapeXML for a value none of its removals apply to; undefined for any other value. */
function plainEscape(value: unknown): string | undefined {
  const escaped = String(value)
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
  return MAYBE_REMOVED.test(escaped) ? undefined : escaped;
}

export class BufferedJUnitReporter extends JUnitReporter {
  private readonly lines: string[] = [];
  private readonly target: string;

  /** `outputFile` is where the XML is written, once, at the end of the run. */
  constructor(options: Options & { outputFile: string }) {
    const { outputFile, ...rest } = options;
    super(rest); // no outputFile: vitest opens no file; its output is redirected into `lines` below
    this.target = outputFile;
  }

  override async onInit(ctx: Vitest): Promise<void> {
    await super.onInit(ctx);
    const self = this as unknown as Plumbing;
    const collect = async (text: string): Promise<void> => {
      this.lines.push(text);
    };
    self.baseLog = collect;
    self.logger.baseLog = collect;
  }

  override async writeTasks(tasks: Task[], filename: string): Promise<void> {
    const { options, logger } = this as unknown as Plumbing;
    for (const task of tasks) {
      if (task.type !== 'test' || task.result?.state === 'fail' || task.annotations.length) {
        await super.writeTasks([task], filename);
        continue;
      }
      const template = options.classnameTemplate;
      const vars = { filename: task.file.name, filepath: task.file.filepath };
      const classname =
        typeof template === 'function'
          ? template(vars)
          : typeof template === 'string'
            ? template.replace(/\{filename\}/g, vars.filename).replace(/\{filepath\}/g, vars.filepath)
            : filename;
      const attrs = {
        classname,
        file: options.addFileAttribute ? filename : undefined,
        name: task.name,
        time: SECONDS.format((task.result?.duration ?? 0) / 1e3),
      };
      await this.writeElement('testcase', attrs, async () => {
        if (options.includeConsoleOutput) {
          await this.writeLogs(task, 'out');
          await this.writeLogs(task, 'err');
        }
        if (task.mode === 'skip' || task.mode === 'todo') await logger.log('<skipped/>');
      });
    }
  }

  /** vitest's writeElement, its attributes escaped by plainEscape when they can be; else vitest's own. */
  override async writeElement(name: string, attrs: Record<string, unknown>, children: () => Promise<void>): Promise<void> {
    const pairs: string[] = [];
    for (const key in attrs) {
      const attr = attrs[key];
      if (attr === undefined) continue;
      const escaped = plainEscape(attr);
      if (escaped === undefined) return super.writeElement(name, attrs, children);
      pairs.push(`${key}="${escaped}"`);
    }
    const { logger } = this as unknown as Plumbing & { logger: { indent(): void; unindent(): void } };
    await logger.log(`<${name}${pairs.length ? ` ${pairs.join(' ')}` : ''}>`);
    logger.indent();
    await children.call(this);
    logger.unindent();
    await logger.log(`</${name}>`);
  }

  override async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    this.lines.length = 0;
    await super.onTestRunEnd(testModules);
    await writeFile(this.target, this.lines.join('\n') + '\n');
    this.lines.length = 0;
  }
}
