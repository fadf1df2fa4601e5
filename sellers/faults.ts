// The fault modes of the reference seller: each breaks exactly one rule and names the check ids it
// must trip. The self-test matrix and `adcp-conformance checks` read this list.
// (Filled in by the reference-seller work; the shape is the contract.)

export interface Fault {
  /** `--fault NAME` on the seller's command line. */
  name: string;
  /** What the fault breaks, in one line. */
  description: string;
  /** Check ids that must fail (MUST) or warn (SHOULD) under this fault, and no others. */
  trips: string[];
  /** Transports the fault applies to (default both). */
  transports?: Array<'stdio' | 'http'>;
  /** Agent flags the harness must run with for the fault to show (e.g. production, sandbox). */
  agent?: { production?: boolean; sandbox?: boolean };
}

export const faults: Fault[] = [];
