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
