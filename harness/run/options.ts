// `adcp-conformance run` options: parsed with node:util parseArgs; anything wrong is a UsageError (exit 2).
import type { FailOn } from '../report/model.ts';
import { ADHOC_USAGE, DEV_OPTIONS, devOptionsOf, normalizeWatchArg, WATCH_USAGE, type DevOptions } from './dev/index.ts';
import { didYouMean, parseCommandArgs, UsageError } from './usage-error.ts';

export const REPORTERS = ['junit', 'json', 'summary', 'markdown', 'html', 'badge', 'blob'] as const;
export type ReporterName = (typeof REPORTERS)[number];
export const DEFAULT_REPORTERS: readonly ReporterName[] = ['junit', 'json', 'summary', 'markdown', 'html'];

export interface RunOptions {
  config?: string;
  agents: string[];
  checks: string[];
  out: string;
  reporters: Set<ReporterName>;
  strict: boolean;
  /** `--junit-all`: not-applicable outcomes become JUnit test cases too. */
  junitAll?: boolean;
  /** `--storyboards SELECTION`: run the official AdCP storyboards (advisory) through the harness's proxy. */
  storyboards?: string;
  /** `--strict-storyboards`: storyboard outcomes count in the verdict and exit code. */
  strictStoryboards?: boolean;
  /** `--judge-timeout MS`: the time budget for judging one agent (schema compilation included). */
  judgeTimeoutMs?: number;
  record?: string;
  replay?: string;
  mergeReports?: string;
  concurrency: number;
  shard?: { index: number; count: number };
  schemas?: string;
  /** Leave the run's private work directory (suite files, suite data) in place, and print where. */
  keepWork: boolean;
  help: boolean;
  /** `--compare FILE`: the previous run's report.json, to report what changed. */
  compare?: string;
  /** `--fail-on`: `any` (default) or `regressions` (needs --compare). */
  failOn?: FailOn;
  /** false under `--no-reverify`: failing read-only calls are not asked again in a fresh session. */
  reverify?: boolean;
  /** `--no-baseline`: the `expect` entries are not applied, so baselined failures count. */
  noBaseline?: boolean;
  /** `--write-baseline FILE`: write the run's failures as `expect` blocks (YAML). */
  writeBaseline?: string;
  /** `--quiet`: the printed summary is the verdict table, one line per failing check, the headline and the gate. */
  quiet?: boolean;
  /** The dev loop: an agent given on the command line (--url / --stdio), --watch [PATH], --verbose. */
  adhoc?: DevOptions['adhoc'];
  watch?: string;
  verbose?: boolean;
  /**
   * The webhook receiver of sandbox agents: `--webhook-url` (a public HTTPS base an operator's forwarder sends
   * to the receiver, listening on 127.0.0.1:`--webhook-port`) and `--webhook-wait` (ms of quiet after the last
   * call before it closes). Absent: each sandbox agent's receiver listens on an ephemeral loopback port.
   */
  webhooks?: { publicBase?: string; port?: number; lateMs?: number };
  /** Told the finished run's report (the --watch loop compares runs with it). */
  onReport?: (report: import('../report/model.ts').RunReport) => void;
}

export { UsageError } from './usage-error.ts';

export const RUN_USAGE = `usage: adcp-conformance run [options]

Probes every agent of the config (default: the embedded reference seller, over stdio and HTTP),
judges each answer against the check catalog and writes reports.

options:
  --config FILE          agents to test (JSON or YAML); without it, the embedded reference seller
  --agent NAME…          only these agents (repeat, or comma-separated)
  --check ID-or-prefix…  only these checks: an exact id, or a prefix such as 'envelope.' (repeatable)
  --out DIR              where reports go (default: reports/)
  --reporter LIST        comma-separated: junit,json,summary,markdown,html (default: these five); add
                         'badge' for badges/<agent>.json (shields.io), 'blob' for --merge-reports
  --strict               SHOULD failures (warnings) fail the run too
  --junit-all            list not-applicable outcomes as JUnit test cases too (default: counted only)
  --judge-timeout MS     time budget for judging one agent, schema compilation included (default: 5000)
  --storyboards SEL      also run the official AdCP storyboards (universal, media-buy, all, or ids; advisory)
  --strict-storyboards   storyboard failures count in the verdict and exit code
  --record FILE          write every agent's raw session to FILE (JSONL)
  --replay FILE          judge a recording offline instead of probing (no network)
  --concurrency N        agents probed at once (default: 4)
  --shard i/n            run only the i-th of n shards of the agents (nightly runs over many machines)
  --merge-reports DIR    join the blob reports of sharded runs into one set of reports (probes nothing)
  --schemas DIR|URL      AdCP JSON schemas to validate against (default: those inside @adcp/sdk)
  --keep-work            keep the run's private work directory (vitest suite files and data; removed
                         by default) and print its path, for debugging
  --compare FILE         a previous run's report.json: report new failures, fixed, flaky and agents that
                         went down, came back, appeared or disappeared (terminal, summary.md, report.html)
  --fail-on any|regressions
                         exit 1 on any failure (default), or only on new failures and newly unreachable
                         agents against --compare (exit 3 then means only that the run was cut short)
  --webhook-url URL      a public HTTPS base that forwards to the harness's webhook receiver (needs
                         --webhook-port): sandbox agents' calls name it for webhooks instead of a
                         loopback URL (a seller outside a sandbox refuses loopback callbacks)
  --webhook-port N       the 127.0.0.1 port the receiver listens on, where the --webhook-url forwarder sends
  --webhook-wait MS      quiet spell waited for late webhooks after an agent's last call (default: 2000)
  --no-reverify          do not ask a failing read-only call again in a fresh session (flaky detection)
  --no-baseline          ignore the config's expect entries: baselined failures count again
  --write-baseline FILE  write this run's failures as an expect block per agent (YAML), reasons to fill in
  -q, --quiet            print only the verdict table, one line per failing check and the gate line
${ADHOC_USAGE}
${WATCH_USAGE}
  -h, --help             this text

exit codes: 0 conformant · 1 a conformance failure · 2 usage or config error · 3 incomplete`;

export function parseRunArgs(argv: string[]): RunOptions {
  let values;
  try {
    ({ values } = parseCommandArgs({
      args: normalizeWatchArg(argv),
      strict: true,
      allowPositionals: false,
      options: {
        config: { type: 'string' },
        agent: { type: 'string', multiple: true },
        check: { type: 'string', multiple: true },
        out: { type: 'string' },
        reporter: { type: 'string', multiple: true },
        strict: { type: 'boolean' },
        'junit-all': { type: 'boolean' },
        'judge-timeout': { type: 'string' },
        storyboards: { type: 'string' },
        'strict-storyboards': { type: 'boolean' },
        record: { type: 'string' },
        replay: { type: 'string' },
        'merge-reports': { type: 'string' },
        concurrency: { type: 'string' },
        shard: { type: 'string' },
        schemas: { type: 'string' },
        'keep-work': { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        compare: { type: 'string' },
        'fail-on': { type: 'string' },
        'no-reverify': { type: 'boolean' },
        'no-baseline': { type: 'boolean' },
        'write-baseline': { type: 'string' },
        'webhook-url': { type: 'string' },
        'webhook-port': { type: 'string' },
        'webhook-wait': { type: 'string' },
        ...DEV_OPTIONS,
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    // parseCommandArgs words its own errors (one line, with a did-you-mean).
    throw err instanceof UsageError ? err : new UsageError(err instanceof Error ? err.message : String(err));
  }
  const list = (v: string[] | undefined) =>
    (v ?? [])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean);
  // A flag given with nothing in it (`--agent "$UNSET"`) must not quietly mean "everything".
  for (const flag of ['agent', 'check', 'reporter'] as const) {
    if (values[flag] !== undefined && list(values[flag]).length === 0)
      throw new UsageError(`--${flag}: expected a name, got '${values[flag].join(',')}'`);
  }

  const reporters = new Set<ReporterName>();
  for (const name of values.reporter ? list(values.reporter) : DEFAULT_REPORTERS) {
    if (!(REPORTERS as readonly string[]).includes(name))
      throw new UsageError(`--reporter: unknown reporter '${name}' (one of ${REPORTERS.join(', ')})`);
    reporters.add(name as ReporterName);
  }
  if (values.record !== undefined && values.replay !== undefined) throw new UsageError('--record and --replay cannot be used together');
  const mergeReports = values['merge-reports'];
  if (mergeReports !== undefined) {
    // A merge probes and judges nothing: a flag that would change what is probed or judged cannot apply.
    const probing = (
      [
        'config',
        'agent',
        'check',
        'record',
        'replay',
        'shard',
        'schemas',
        'concurrency',
        'junit-all',
        'no-reverify',
        'no-baseline',
        'judge-timeout',
        'storyboards',
        'strict-storyboards',
        'webhook-url',
        'webhook-port',
        'webhook-wait',
      ] as const
    ).filter((f) => values[f] !== undefined);
    if (probing.length)
      throw new UsageError(
        `--merge-reports joins finished shards as they were judged: it takes no ${probing.map((f) => `--${f}`).join(', ')}`,
      );
  }
  if (mergeReports !== undefined && reporters.has('blob')) throw new UsageError('--merge-reports cannot write a blob report');

  const opts: RunOptions = {
    agents: list(values.agent),
    checks: list(values.check),
    out: values.out ?? 'reports',
    reporters,
    strict: values.strict ?? false,
    junitAll: values['junit-all'] ?? false,
    concurrency: values.concurrency === undefined ? 4 : positiveInt('--concurrency', values.concurrency),
    keepWork: values['keep-work'] ?? false,
    help: values.help ?? false,
  };
  if (values.config !== undefined) opts.config = values.config;
  if (values.quiet === true) opts.quiet = true;
  if (values.record !== undefined) opts.record = values.record;
  if (values.replay !== undefined) opts.replay = values.replay;
  if (mergeReports !== undefined) opts.mergeReports = mergeReports;
  if (values.schemas !== undefined) opts.schemas = values.schemas;
  if (values.storyboards !== undefined) {
    if (values.storyboards.trim() === '') throw new UsageError("--storyboards: expected 'universal', 'media-buy', 'all' or storyboard ids");
    opts.storyboards = values.storyboards;
  }
  if (values['strict-storyboards']) {
    if (values.storyboards === undefined) throw new UsageError('--strict-storyboards needs --storyboards');
    opts.strictStoryboards = true;
  }
  if (values['judge-timeout'] !== undefined) opts.judgeTimeoutMs = positiveInt('--judge-timeout', values['judge-timeout']);
  if (values.shard !== undefined) opts.shard = parseShard(values.shard);
  const failOn = values['fail-on'] ?? 'any';
  if (failOn !== 'any' && failOn !== 'regressions') throw new UsageError(`--fail-on: expected 'any' or 'regressions', got '${failOn}'`);
  if (failOn === 'regressions' && values.compare === undefined)
    throw new UsageError('--fail-on regressions needs --compare PREVIOUS_REPORT_JSON (regressions are measured against it)');
  opts.failOn = failOn;
  if (values.compare !== undefined) opts.compare = values.compare;
  opts.reverify = values['no-reverify'] !== true;
  if (values['no-baseline'] === true) opts.noBaseline = true;
  if (values['write-baseline'] !== undefined) opts.writeBaseline = values['write-baseline'];
  const webhooks = webhookOptions(values['webhook-url'], values['webhook-port'], values['webhook-wait']);
  if (webhooks) opts.webhooks = webhooks;
  Object.assign(opts, devOptionsOf(values));
  // An agent on the command line is the whole inventory: nothing else may name agents.
  const naming = (['config', 'agent', 'replay', 'merge-reports', 'shard'] as const).filter((f) => values[f] !== undefined);
  if (opts.adhoc && naming.length)
    throw new UsageError(`--url / --stdio name the agent: no ${naming.map((f) => `--${f}`).join(', ')} with them`);
  if (opts.watch !== undefined && (values.replay !== undefined || mergeReports !== undefined))
    throw new UsageError('--watch re-runs live agents: not with --replay or --merge-reports');
  return opts;
}

function webhookOptions(url?: string, port?: string, wait?: string): RunOptions['webhooks'] {
  const out: NonNullable<RunOptions['webhooks']> = {};
  if (url !== undefined) {
    let base: URL | undefined;
    try {
      base = new URL(url);
    } catch {
      /* said below */
    }
    if (!base || base.protocol !== 'https:' || base.search || base.hash || base.username || base.password)
      throw new UsageError(`--webhook-url: expected a public https:// base URL without query, fragment or credentials, got '${url}'`);
    if (port === undefined) throw new UsageError('--webhook-url needs --webhook-port: the 127.0.0.1 port its forwarder sends to');
    out.publicBase = base.href.replace(/\/+$/, '');
  }
  if (port !== undefined) {
    if (url === undefined) throw new UsageError('--webhook-port needs --webhook-url (without it each receiver takes an ephemeral port)');
    const n = positiveInt('--webhook-port', port);
    if (n > 65535) throw new UsageError(`--webhook-port: expected a port (1-65535), got '${port}'`);
    out.port = n;
  }
  if (wait !== undefined) out.lateMs = positiveInt('--webhook-wait', wait);
  return Object.keys(out).length ? out : undefined;
}

function positiveInt(flag: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag}: expected a positive integer, got '${text}'`);
  return n;
}

function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || index < 1 || count < 1 || index > count) throw new UsageError(`--shard: expected i/n with 1 ≤ i ≤ n (e.g. 1/2), got '${text}'`);
  return { index, count };
}

/** `--check` selection: exact ids, `area.` prefixes, or a bare area name meaning `area.`. */
export function checkSelector(patterns: readonly string[], knownIds: readonly string[]): ((id: string) => boolean) | undefined {
  if (!patterns.length) return undefined;
  const matchers = patterns.map((p) => {
    const prefix = p.endsWith('.') ? p : knownIds.includes(p) ? undefined : `${p}.`;
    const match = prefix === undefined ? (id: string) => id === p : (id: string) => id.startsWith(prefix);
    if (!knownIds.some(match))
      throw new UsageError(
        `--check: '${p}' matches no check id${didYouMean(p, [...knownIds, ...areasOf(knownIds)])}; 'adcp-conformance checks' lists them`,
      );
    return match;
  });
  return (id) => matchers.some((m) => m(id));
}

/** The areas of check ids, bare and as prefixes (`envelope`, `envelope.`): what `--check` also accepts. */
export function areasOf(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.slice(0, id.indexOf('.'))))].flatMap((area) => [area, `${area}.`]);
}
