// capabilities.test-controller — a production agent does not expose the compliance test controller,
// which lets a caller force state transitions.
import { defineCheck, fail, notApplicable, pass } from '../check.ts';
import { listedTools, one } from '../transport/_listed-tools.ts';
import { TEST_CONTROLLER, toolIndex } from './_tools.ts';

export default defineCheck({
  id: 'capabilities.test-controller',
  scope: 'agent',
  severity: 'MUST',
  live: false,
  title: 'an agent marked `production` does not expose `comply_test_controller`',
  spec: {
    label: 'AdCP 3.1 · compliance/comply-test-controller-request.json ("Sandbox only — sellers MUST NOT expose this tool in production")',
    url: 'https://adcontextprotocol.org/schemas/3.1.19/compliance/comply-test-controller-request.json',
  },
  fix: 'register `comply_test_controller` only in sandbox deployments (e.g. behind a sandbox flag), never on the production agent',
  judge(a) {
    if (!a.agent.production) return one('tools/list', notApplicable('the agent is not marked production'));
    const listed = listedTools(a);
    if ('verdict' in listed) return one('tools/list', listed.verdict);
    const i = toolIndex(listed.tools, TEST_CONTROLLER);
    if (i < 0) return one('tools/list', pass());
    return one('tools/list', fail(`/tools/${i}/name`, `no ${TEST_CONTROLLER} on a production agent`, `${TEST_CONTROLLER} is listed`));
  },
});
