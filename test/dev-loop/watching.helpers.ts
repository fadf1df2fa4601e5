// A long-running CLI (`--watch`) seen from a test: its output so far, a wait for a line, and a stop that
// sends SIGTERM and waits for the exit code. Shared by the watch, --cwd and packed-install tests.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

export interface Watching {
  output(): string;
  errors(): string;
  line(pattern: RegExp, ms?: number): Promise<string>;
  stop(): Promise<number | null>;
}

export function watchingChild(child: ChildProcessWithoutNullStreams, defaultMs = 90_000): Watching {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    output: () => stdout,
    errors: () => stderr,
    async line(pattern: RegExp, ms = defaultMs): Promise<string> {
      const deadline = Date.now() + ms;
      for (;;) {
        const hit = stdout.split('\n').find((l) => pattern.test(l));
        if (hit) return hit;
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`no line ${pattern} within ${ms} ms\nstdout:\n${stdout}\nstderr:\n${stderr.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop(): Promise<number | null> {
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 30_000))]);
      if (code === 'stuck') throw new Error('the watching CLI did not exit on SIGTERM within 30 s');
      return code;
    },
  };
}
