// The dev loop's door: ad-hoc agents (--url / --stdio), the dev options run and probe share, and the
// loops themselves (probe once, watch and re-run). The loops load on first use: parsing a command line
// must not load the pipeline (a usage error answers at once), and watch-run.ts reaches the pipeline.
export { ADHOC_USAGE, DEV_OPTIONS, devOptionsOf, normalizeWatchArg, WATCH_USAGE, type DevOptions } from './dev-options.ts';
export { adhocAgent } from './adhoc.ts';

export const loadWatchRun = () => import('./watch-run.ts');
export const loadWatch = () => import('./watch.ts');
export const loadProbeOnce = () => import('./probe-once.ts');
