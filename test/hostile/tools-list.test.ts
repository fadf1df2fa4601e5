// Hostile tools/list answers: a nextCursor that never ends, a cursor that loops, two tools with one name.
// Pagination is bounded and each is recorded as a protocol violation; the tools read so far are kept.
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { captureAgent, MAX_TOOL_PAGES } from '../../harness/capture/capture-agent.ts';
import { probes, stdioAgent } from '../connect/agents.ts';

const RPC_STDIO = fileURLToPath(new URL('./servers/rpc-stdio.mjs', import.meta.url));
const run = (behaviour: string) =>
  captureAgent(stdioAgent('rpc', { command: process.execPath, args: [RPC_STDIO, behaviour], probes: probes('get_adcp_capabilities') }));

test('an endless nextCursor stops at the page bound and is recorded', async () => {
  const c = await run('paginate-forever');
  expect(c.toolsList).toMatchObject({ ok: true, pages: MAX_TOOL_PAGES, tools: [{ name: 'get_adcp_capabilities' }] });
  expect(c.protocolViolations).toEqual([
    {
      kind: 'endless-pagination',
      message: `tools/list still gave a nextCursor after ${MAX_TOOL_PAGES} pages; stopped there`,
      at: 'tools/list',
    },
  ]);
  expect(c.exchanges[0]?.outcome.kind).toBe('result'); // the session goes on
});

test('a nextCursor that repeats an earlier one (a loop) is recorded', async () => {
  const c = await run('cursor-loop');
  expect(c.toolsList).toMatchObject({ ok: true, pages: 2 });
  expect(c.protocolViolations).toEqual([
    expect.objectContaining({ kind: 'endless-pagination', message: expect.stringContaining('repeated the nextCursor "1"') }),
  ]);
});

test('two tools with one name are recorded', async () => {
  const c = await run('duplicate-names');
  expect(c.protocolViolations).toEqual([
    { kind: 'duplicate-tool-name', message: 'tools/list names 2 tools "get_adcp_capabilities"', at: 'tools/list' },
  ]);
});
