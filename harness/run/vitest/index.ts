// The vitest leg's door: judged outcomes become suite files in a private per-run workspace, vitest runs
// them (vitest-driver.ts, loaded on first use: it brings vitest in) with its own runner (suite-runner.ts,
// loaded by path) and JUnit reporter, and the reports are written. suites/agent-suite.ts reads the file
// contract of suite-data.ts directly: it runs inside vitest's workers, apart from the rest.
export { suiteFile, testCases, type AgentSuiteData, type TestCase } from './suite-data.ts';
export { createWorkspace, keyOfSuiteFile, openMergeWork, type Workspace } from './workspace.ts';
export { checkOutputPaths, writeFileAtomically, writeReports } from './write-reports.ts';

/** vitest-driver.ts on first use (importing it loads vitest itself). */
export const loadVitestDriver = () => import('./vitest-driver.ts');
