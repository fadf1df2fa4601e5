// Timeouts that measure the seller, not the harness. A timer that comes due while the harness's own event
// loop is blocked (its start-up, a synchronous schema compile, a CPU-starved machine) runs before the loop
// reads the answer that arrived meanwhile — libuv runs due timers before it polls for I/O — and would call
// a prompt seller unreachable. So every seller-facing deadline is kept on the seller's clock: wall time
// minus the time this thread's event loop could not run (measured by a heartbeat while any deadline is
// armed), and a timer that comes due first lets pending I/O be read (two turns of the loop) before it fires.
//
// The heartbeat costs one 20 ms timer for the whole thread (not one per call), unref'd, and runs only while
// a seller deadline is armed. Stalls shorter than the tolerance are not counted: a timeout is never moved
// for timer jitter, so a seller that never answers still times out on time, by the seller's clock.

/** The heartbeat's period. */
const HEARTBEAT_MS = 20;
/** Lateness of a heartbeat not counted as a stall (timer jitter). */
const TOLERANCE_MS = 10;

let armed = 0;
let heartbeat: NodeJS.Timeout | undefined;
let lastTick = 0;
/** Milliseconds the loop could not run while the heartbeat was on, in all. */
let stalledMs = 0;

/** The stall that has begun since the last heartbeat and is not yet counted (0 when the heartbeat is off). */
function openStall(now: number): number {
  return heartbeat === undefined ? 0 : Math.max(0, now - lastTick - HEARTBEAT_MS - TOLERANCE_MS);
}

function tick(): void {
  const now = performance.now();
  stalledMs += openStall(now);
  lastTick = now;
}

function hold(): void {
  if (armed++ === 0) {
    lastTick = performance.now();
    heartbeat = setInterval(tick, HEARTBEAT_MS);
    heartbeat.unref();
  }
}

function release(): void {
  if (--armed === 0 && heartbeat !== undefined) {
    stalledMs += openStall(performance.now());
    clearInterval(heartbeat);
    heartbeat = undefined;
  }
}

/** Now on the seller's clock (ms): wall time less the time this thread's event loop was stalled. Monotonic. */
export function sellerNow(): number {
  const now = performance.now();
  return now - stalledMs - openStall(now);
}

/** Milliseconds of stall counted so far (tests, bench). */
export function stalledSoFar(): number {
  return stalledMs + openStall(performance.now());
}

/** A deadline on the seller's clock; `cancel` before it fires (idempotent). */
export interface SellerTimer {
  cancel(): void;
  /** Milliseconds left on the seller's clock (negative once due). */
  left(): number;
}

/**
 * Calls `fire` once `ms` have passed on the seller's clock and pending I/O has been read, unless canceled
 * first. A stall of the harness moves the deadline by as long as it lasted.
 */
export function sellerTimeout(ms: number, fire: () => void): SellerTimer {
  const due = sellerNow() + Math.max(0, ms);
  // One of the two is pending at a time; each is cleared with its own function (the other's would corrupt Node's queues).
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let done = false;
  hold();
  const finish = (): void => {
    if (done) return;
    done = true;
    release();
  };
  const arm = (wait: number): void => {
    immediate = undefined;
    timer = setTimeout(check, Math.max(1, Math.ceil(wait)));
  };
  // Due by the seller's clock: first let the loop poll for I/O (an answer that arrived during a stall is
  // read in the poll phase, which runs between these two checks), then look again.
  const check = (): void => {
    const left = due - sellerNow();
    if (left >= 1) return arm(left);
    timer = undefined;
    immediate = setImmediate(() => {
      if (done) return;
      immediate = setImmediate(() => {
        if (done) return;
        const still = due - sellerNow();
        if (still >= 1) return arm(still);
        finish();
        fire();
      });
    });
  };
  arm(ms);
  return {
    cancel(): void {
      if (done) return;
      if (timer !== undefined) clearTimeout(timer);
      if (immediate !== undefined) clearImmediate(immediate);
      finish();
    },
    left: () => due - sellerNow(),
  };
}

/** Resolves after `ms` on the seller's clock (a bounded wait that a stall of the harness does not shorten). */
export function sellerSleep(ms: number): Promise<void> {
  return new Promise((resolve) => sellerTimeout(ms, resolve));
}
