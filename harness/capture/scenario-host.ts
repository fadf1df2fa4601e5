// What a scenario may use of the session it runs in: its own module, so the scenario modules
// (credential-in-args, envelope-, version-scenario) and scenarios.ts, which runs them, need not import each other.
import type { AgentConfig } from '../config/types.ts';
import type { Exchange, ExchangeScenario } from '../record/exchange.ts';

/** What a scenario may use of the session it runs in. */
export interface ScenarioHost {
  agent: AgentConfig;
  /** Names of the tools the agent lists. */
  listed: ReadonlySet<string>;
  /** Every call so far: the probes and the earlier scenarios' steps. */
  exchanges(): readonly Exchange[];
  /**
   * One recorded call as a scenario step; undefined when the session can no longer call (stopped, out of
   * time, process gone). `opts.context: false`: sent without the `context` object every other call carries.
   */
  call(tool: string, args: Record<string, unknown>, scenario: ExchangeScenario, opts?: { context?: false }): Promise<Exchange | undefined>;
  /**
   * Several calls at once on the one session: every request is sent before any answer is awaited (a buyer
   * retrying while its first request is still running). Recorded in the order given; undefined for
   * each when the session can no longer call.
   */
  together(
    calls: ReadonlyArray<{ tool: string; args: Record<string, unknown>; scenario: ExchangeScenario }>,
  ): Promise<Array<Exchange | undefined>>;
}
