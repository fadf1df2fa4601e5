// A full garbage collection, asked for where the harness has just let go of large answers' parsed copies
// (hundreds of MB of garbage: V8 would otherwise let the heap grow well past the cap first). Asked for
// sparingly: on the main thread it stops every session of the run (~50–100 ms), so once per session
// that held such answers, never per call. Exposed at run time as jest does for --logHeapUsage: V8's `gc`
// flag, then the function from a fresh context. A ground-floor module (it imports nothing of ours).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/** Collects garbage now, when V8 lets us; a no-op otherwise. Never throws. */
export function collectGarbage(): void {
  try {
    if (gc === undefined) {
      setFlagsFromString('--expose-gc');
      const fn: unknown = runInNewContext('gc');
      gc = typeof fn === 'function' ? (fn as () => void) : null;
    }
    gc?.();
  } catch {
    gc = null;
  }
}
