// The fault modes of the reference seller, discovered from their modules: every `sellers/faults/<name>.ts`
// (not starting with `_`) default-exports one `defineFault({...})` — the check ids it must trip with
// their status, and the behaviour that bends the seller. Adding a fault is adding one file. The self-test
// matrix and `adcp-conformance checks` read `faults`; the seller loads only the faults it runs with
// (sellers/faults/_load.ts).
import type { Fault } from './faults/_fault.ts';
import { loadFaults } from './faults/_load.ts';

export type { Fault, FaultBehaviour, ResultInfo, Takeover, TripStatus } from './faults/_fault.ts';
export { defineFault, namedIds, trippedIds, tripsAt } from './faults/_fault.ts';
export { faultModuleFiles, loadFaults } from './faults/_load.ts';

export const faults: readonly Fault[] = await loadFaults();

const byName = new Map(faults.map((f) => [f.name, f]));

/** The fault named `name`, if any. */
export function faultByName(name: string): Fault | undefined {
  return byName.get(name);
}
