// Why an agent could not be reached or verified: the harness decides it from the recorded session
// (capture/down-reason.ts) and every report shows it. A record type, on the ground floor, so capture/ need
// not import report/.

/** Why a seller is down, in the terms a person fixes it by. */
export type DownCause =
  | 'connection-refused'
  | 'dns'
  | 'tls'
  | 'http-status'
  | 'timeout'
  | 'command-not-found'
  | 'not-executable'
  | 'exited'
  | 'protocol'
  | 'other';

export interface DownReason {
  cause: DownCause;
  /** One line: what happened, e.g. "connection refused at 127.0.0.1:8080", "exited with code 1: Error: Cannot find module 'x'". */
  detail: string;
  /** One line: what to do about it, fitting the cause. */
  fix: string;
}
