// Live progress while agents are probed: one line per agent, redrawn in place on a TTY; plain
// appended lines when the stream is not a TTY or under CI (logs must stay readable there).
import type { Writable } from 'node:stream';
import { sellerText } from '../sanitize.ts';

export interface Progress {
  update(agent: string, text: string): void;
  close(): void;
}

type Terminal = Writable & { isTTY?: boolean; columns?: number; rows?: number };

export function createProgress(
  agents: readonly string[],
  stream: Terminal,
  env: NodeJS.ProcessEnv,
  secrets: readonly string[] = [],
): Progress {
  // Redrawing needs every line on screen; more agents than rows falls back to plain lines.
  const live = stream.isTTY === true && !env.CI && agents.length < (stream.rows || 24) - 1;
  const order = new Map(agents.map((a, i) => [a, i]));
  const width = Math.max(...agents.map((a) => a.length), 5);
  const lines = agents.map((a) => `${a.padEnd(width)}  waiting`);
  let drawn = 0;

  const draw = () => {
    const columns = Math.max(20, (stream.columns || 100) - 1);
    // Move up over what was drawn before and rewrite every line (clearing each to its end).
    let out = drawn ? `\u001b[${drawn}F` : '';
    for (const line of lines) out += `\u001b[2K${Array.from(line).slice(0, columns).join('')}\n`;
    drawn = lines.length;
    stream.write(out);
  };

  return {
    update(agent, text) {
      // Step texts can carry seller-chosen tool names: strip control characters, redact, bound the length.
      const line = `${agent.padEnd(width)}  ${sellerText(text, secrets, 120)}`;
      const i = order.get(agent);
      if (!live) {
        stream.write(line + '\n');
        return;
      }
      if (i === undefined) return;
      lines[i] = line;
      draw();
    },
    close() {
      drawn = 0;
    },
  };
}

/** `tools/call get_products (5 s of 30 s)` for a request still waiting (WaitingNotice); a fraction only where the budget has one. */
export function waitingText(e: { call: string; waitedMs: number; budgetMs: number }): string {
  // Tenths only where the budget has them (a budget measured to a deadline may be a hair under the flag's 6 s).
  const seconds = (ms: number) => String(ms >= 60_000 ? Math.round(ms / 1000) : Math.round(ms / 100) / 10);
  return `${e.call} (${Math.floor(e.waitedMs / 1000)} s of ${seconds(e.budgetMs)} s)`;
}

/**
 * The waiting line of one agent on its own (`probe`, which has no progress lines): `waiting on <agent>:
 * tools/call get_products (5 s of 30 s)`, seller text stripped and redacted. On a TTY (outside CI) the line
 * is rewritten in place and cleared once the call settles; otherwise each notice is a plain line.
 */
export function waitingLine(
  stream: Terminal,
  env: NodeJS.ProcessEnv,
  secrets: readonly string[] = [],
): { notice(e: { agent: string; call: string; waitedMs: number; budgetMs: number; settled?: true }): void; clear(): void } {
  const live = stream.isTTY === true && !env.CI;
  let shown = false;
  const clear = () => {
    if (shown) stream.write('\r\u001b[2K');
    shown = false;
  };
  return {
    notice(e) {
      if (e.settled) return clear();
      const text = sellerText(`waiting on ${e.agent}: ${waitingText(e)}`, secrets, 200);
      if (!live) return void stream.write(text + '\n');
      stream.write(`\r\u001b[2K${text}`);
      shown = true;
    },
    clear,
  };
}
