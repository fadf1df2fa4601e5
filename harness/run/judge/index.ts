// The judging room's door: a recorded session in, report outcomes out — checks run in a worker thread
// under a budget (judge-sandbox.ts loads judge-worker.ts by path), schemas warmed ahead, evidence
// attached, failures re-verified on a fresh session. The rest of the harness imports this file only.
export { judgeCapture, judgeCaptureIsolated } from './judge.ts';
export { closeJudgeSandboxes } from './judge-sandbox.ts';
export { JudgeAhead } from './judge-ahead.ts';
export { likelyTools, warmJudge } from './warm-schemas.ts';
export { mayReverify, planReverify, reverifyFailures, type ReverifyPlan } from './reverify.ts';
