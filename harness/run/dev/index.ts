// The dev loop's door: ad-hoc agents (--url / --stdio), the dev options run and probe share, and the
// loops themselves (probe once, watch and re-run). The loops load on first use: parsing a command line
// must not load them or what they reach (a usage error answers at once).
export { ADHOC_USAGE, DEV_OPTIONS, devOptionsOf, normalizeWatchArg, WATCH_USAGE, type DevOptions } from './dev-options.ts';
export { adhocAgent } from './adhoc.ts';

export const loadWatchRun = () => import('./watch-run.ts');
// By import() type, like the loader above: a static `export … from './watch-run.ts'` would close an import
// chain back here (watch-run.ts → watch.ts → run/options.ts → this door).
export type WatchRunPlan = import('./watch-run.ts').WatchRunPlan;
export const loadWatch = () => import('./watch.ts');
export const loadProbeOnce = () => import('./probe-once.ts');
