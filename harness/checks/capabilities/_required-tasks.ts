// The tasks each AdCP protocol lists as Required, per release, as data — from the normative page
// "Required tasks by protocol" (protocol/required-tasks.mdx) of AdCP 3.0.26 and 3.1.19. Only the
// unconditional "Required" rows: a "Conditional" row depends on a capability the harness does not
// judge here, an "Optional" one binds nobody. `mutating` comes from the release's schema manifest
// (manifest.json `tools.<name>.mutating`): the harness sees those only on agents marked sandbox.
//
// `governance` is one supported_protocols value for five agent roles (campaign, property, collection,
// content standards, creative governance), each with its own required set: which one a seller fills
// cannot be told from the declaration, so the table has no row for it (reported not-applicable).
// `measurement` (3.1, experimental) lists no task of its own: nothing to require beyond capabilities.

import { requiredTasksOf } from '../../adcp-tasks.ts';

export interface RequiredTask {
  name: string;
  /** The task writes state (manifest.json `mutating`). */
  mutating: boolean;
}

export interface ProtocolRequirement {
  /** The role the page names for this protocol (for messages). */
  role: string;
  tasks: readonly RequiredTask[];
}

/** The rows 3.0.26 and 3.1.19 share (the task lists come from the task table): the pages differ only in conditional and descriptive rows. */
const MAJOR_3: Readonly<Record<string, ProtocolRequirement>> = {
  media_buy: { role: 'Media Buy sales agent', tasks: requiredTasksOf('media_buy') },
  creative: { role: 'creative agent', tasks: requiredTasksOf('creative') },
  signals: { role: 'signal agent', tasks: requiredTasksOf('signals') },
  brand: { role: 'brand agent', tasks: requiredTasksOf('brand') },
  sponsored_intelligence: { role: 'Sponsored Intelligence brand agent', tasks: requiredTasksOf('sponsored_intelligence') },
  measurement: { role: 'measurement agent (experimental in 3.1)', tasks: [] },
};

/** Per release (`major.minor`): protocol value of `supported_protocols` → its required tasks. */
export const REQUIRED_TASKS: Readonly<Record<string, Readonly<Record<string, ProtocolRequirement>>>> = {
  '3.0': MAJOR_3,
  '3.1': MAJOR_3,
};

/** Protocol values the page lists roles for, but whose required set the declaration cannot pick. */
export const UNJUDGED_PROTOCOLS: Readonly<Record<string, string>> = {
  governance:
    'supported_protocols names `governance`, but required-tasks lists five governance roles (campaign, property, collection, content standards, creative) with different required tasks: which one this agent fills cannot be told from the declaration',
};

/** The table of the release judged: its own, else the newest one at or below it within the major. */
export function requiredTasksFor(version: {
  major: number;
  minor: number;
}): { release: string; table: Readonly<Record<string, ProtocolRequirement>> } | undefined {
  let best: { release: string; minor: number } | undefined;
  for (const release of Object.keys(REQUIRED_TASKS)) {
    const [major, minor] = release.split('.').map(Number) as [number, number];
    if (major !== version.major || minor > version.minor) continue;
    if (!best || minor > best.minor) best = { release, minor };
  }
  return best ? { release: best.release, table: REQUIRED_TASKS[best.release]! } : undefined;
}
