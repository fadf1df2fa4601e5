// The one table of AdCP task facts: every list derives from it, in the orders the probes and scenarios
// always used (a reordering would change which call a scenario builds on), and no module under harness/
// keeps a list of its own, written out or through constants bound to task names.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  ADCP_TASKS,
  CREDENTIAL_PROBE_TASKS,
  DISCOVERY_TASKS,
  LIST_SHAPES,
  PINNED_TASKS,
  PROBE_TASKS,
  PROTECTED_TASKS,
  READ_ONLY_TASKS,
  requiredTasksOf,
  tasksNeededBy,
} from '../../harness/adcp-tasks.ts';
import { defaultProbes } from '../../harness/capture/probes.ts';
import { ROOT, tsFiles } from './source-files.helpers.ts';

describe('the AdCP task table', () => {
  test('derives each list in its preference order', () => {
    expect(PROBE_TASKS).toEqual([
      'get_adcp_capabilities',
      'get_products',
      'list_creative_formats',
      'list_creatives',
      'get_media_buys',
      'get_media_buy_delivery',
      'get_signals',
    ]);
    expect(PINNED_TASKS).toEqual([
      'get_products',
      'list_creative_formats',
      'get_signals',
      'list_creatives',
      'get_media_buys',
      'get_media_buy_delivery',
    ]);
    expect(PROTECTED_TASKS).toEqual(['list_creatives', 'get_media_buys', 'get_media_buy_delivery', 'get_signals']);
    expect(DISCOVERY_TASKS).toEqual(['get_adcp_capabilities', 'list_creative_formats', 'get_products']);
    expect(CREDENTIAL_PROBE_TASKS).toEqual([
      'get_adcp_capabilities',
      'list_creative_formats',
      'get_products',
      'list_creatives',
      'get_media_buys',
      'get_signals',
    ]);
    expect(LIST_SHAPES.map((l) => `${l.tool}.${l.items}[].${l.id}`)).toEqual([
      'get_products.products[].product_id',
      'list_creative_formats.formats[].format_id',
      'list_creatives.creatives[].creative_id',
      'get_signals.signals[].signal_agent_segment_id',
      'get_media_buys.media_buys[].media_buy_id',
    ]);
    expect([...READ_ONLY_TASKS].sort()).toEqual([...PROBE_TASKS, 'list_authorized_properties', 'get_creative_delivery'].sort());
    expect(ADCP_TASKS.size).toBe(70);
  });

  test('gives each protocol its required tasks in the page order, reads apart from writes', () => {
    const row = (p: string) => requiredTasksOf(p).map((t) => (t.mutating ? `${t.name}*` : t.name));
    expect(row('media_buy')).toEqual([
      'get_products',
      'list_creative_formats',
      'create_media_buy*',
      'update_media_buy*',
      'get_media_buys',
      'get_media_buy_delivery',
      'provide_performance_feedback*',
    ]);
    expect(row('creative')).toEqual(['list_creative_formats']);
    expect(row('signals')).toEqual(['get_signals', 'activate_signal*']);
    expect(row('brand')).toEqual(['get_brand_identity']);
    expect(row('sponsored_intelligence')).toEqual(['si_initiate_session*', 'si_send_message*', 'si_terminate_session*']);
  });

  test('a read-only task is never mutating, and every listed fact names a task with a response schema', () => {
    for (const t of READ_ONLY_TASKS) expect(requiredTasksOf('media_buy').find((r) => r.name === t)?.mutating ?? false).toBe(false);
    for (const t of [...PROBE_TASKS, ...PINNED_TASKS, ...PROTECTED_TASKS, ...DISCOVERY_TASKS]) expect(ADCP_TASKS.has(t)).toBe(true);
  });

  test('the default probes call the read tasks in table order, with their valid arguments', () => {
    const tools = [...PROBE_TASKS].reverse().map((name) => ({ name }));
    const probes = defaultProbes(tools, { name: 'a', transport: 'stdio', command: 'x' } as never);
    expect(probes.filter((p) => p.intent === 'valid').map((p) => p.tool)).toEqual(PROBE_TASKS);
    expect(probes.find((p) => p.tool === 'get_products' && p.intent === 'valid')?.arguments).toMatchObject({ buying_mode: 'brief' });
    expect(probes.find((p) => p.tool === 'get_signals')?.arguments).toHaveProperty('signal_spec');
  });

  test('names the tasks each sandbox flow cannot run without, in the order its reason names them', () => {
    expect(tasksNeededBy('media-buy-lifecycle')).toEqual(['create_media_buy', 'update_media_buy']);
    expect(tasksNeededBy('creative-library')).toEqual(['sync_creatives', 'list_creatives']);
  });

  test('no module under harness/ keeps a second list of AdCP task names', () => {
    const files = [...tsFiles(join(ROOT, 'harness'))].map((f) => relative(ROOT, f)).filter((f) => f !== join('harness', 'adcp-tasks.ts'));
    const sources = new Map(files.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
    const exported = [...sources.values()].flatMap((src) => taskNameConstants(src, ADCP_TASKS, { exported: true }));
    const offenders = files.filter((f) => {
      const src = sources.get(f)!;
      const imported = exported.filter((id) => new RegExp(`import\\s*(?:type\\s*)?\\{[^}]*\\b${id}\\b[^}]*\\}`).test(src));
      return taskNameLists(src, ADCP_TASKS, [...taskNameConstants(src, ADCP_TASKS), ...imported]).length > 0;
    });
    expect(offenders).toEqual([]);
  });

  test('the guard sees a list of quoted names, of constants bound to names, and of both', () => {
    const src = `const CREATE = 'create_media_buy';\nexport const SYNC: string = 'sync_creatives';
      const a = [CREATE, 'update_media_buy'];
      const b = [\n  'get_products',\n  'get_signals',\n];
      const c = [CREATE, SYNC];
      const d = ['get_products', 'not_a_task'];
      const e = tasks[CREATE];
      const f: string[] = [];
      const g = [{ subject: CREATE, verdict: check(book, CREATE) }];`;
    const bound = taskNameConstants(src, ADCP_TASKS);
    expect(bound).toEqual(['CREATE', 'SYNC']);
    expect(taskNameConstants(src, ADCP_TASKS, { exported: true })).toEqual(['SYNC']);
    expect(taskNameLists(src, ADCP_TASKS, bound)).toEqual([
      `[CREATE, 'update_media_buy']`,
      `[\n  'get_products',\n  'get_signals',\n]`,
      '[CREATE, SYNC]',
    ]);
  });
});

/** Identifiers a module binds to one AdCP task name (`const CREATE = 'create_media_buy'`), or only those it exports. */
function taskNameConstants(src: string, tasks: ReadonlySet<string>, { exported = false } = {}): string[] {
  const binding = new RegExp(
    `${exported ? '\\bexport\\s+' : '\\b'}(?:const|let)\\s+([A-Za-z_$][\\w$]*)\\s*(?::\\s*string\\s*)?=\\s*'([^'\\n]+)'`,
    'g',
  );
  return [...src.matchAll(binding)].filter((m) => tasks.has(m[2]!)).map((m) => m[1]!);
}

/** Array literals (across lines too) with two or more elements that are AdCP task names, quoted or through a constant. */
function taskNameLists(src: string, tasks: ReadonlySet<string>, constants: readonly string[]): string[] {
  const isName = (element: string): boolean => {
    const e = element.trim();
    return (/^'[^']*'$/.test(e) && tasks.has(e.slice(1, -1))) || constants.includes(e);
  };
  return [...src.matchAll(/\[[^[\]]*\]/g)]
    .map((m) => m[0])
    .filter((list) => topLevelElements(list.slice(1, -1)).filter(isName).length >= 2);
}

/** The comma-separated elements of an array literal's inside, not splitting inside (), {} or quotes. */
function topLevelElements(inside: string): string[] {
  const elements: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < inside.length; i++) {
    const c = inside[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      elements.push(inside.slice(start, i));
      start = i + 1;
    }
  }
  return [...elements, inside.slice(start)];
}
