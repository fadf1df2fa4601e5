// `--verbose`: every JSON-RPC message on the wire, one line each on stderr, as the connect layer saw it
// (outgoing before the transport sends it, incoming as parsed off the wire, before the SDK sees it).
// Each line is redacted of the agent's secrets, then bounded, and every character that could forge or
// hide terminal output is shown as an escape: `[agent] → {"jsonrpc":"2.0","id":1,"method":"tools/call",…}`.
import { redact, usableSecrets } from '../config/redact.ts';
import { escapeVisible } from '../sanitize.ts';

/** Characters of one message shown (the rest is counted). */
export const WIRE_CHARS = 2000;

export interface WireEvent {
  direction: 'out' | 'in';
  /** The message as parsed (incoming) or as handed to the transport (outgoing). */
  message: unknown;
  /** The message as it came off the wire, when the transport has it (incoming). */
  text?: string;
}

export type WireListener = (e: WireEvent) => void;

/** One wire line: direction, the message as compact JSON, redacted before it is cut. */
export function wireLine(agent: string, e: WireEvent, secrets: readonly string[], max = WIRE_CHARS): string {
  let text = e.text;
  if (text === undefined) {
    try {
      text = JSON.stringify(e.message) ?? String(e.message);
    } catch {
      text = '[unserializable message]';
    }
  }
  // Redact a window a little longer than what is shown, so a secret straddling the cut is still whole
  // when it is redacted (redacting after the cut could leave half of it).
  const longest = usableSecrets(secrets)[0]?.length ?? 0;
  const window = text.length > max + longest ? text.slice(0, max + longest) : text;
  const redacted = redact(window.replace(/\r?\n$/, ''), secrets);
  // Escapes can make a character six; the bound is on the message's own characters.
  const shown = escapeVisible(redacted.slice(0, max), max * 6);
  const more = text.length - max;
  const arrow = e.direction === 'out' ? '→' : '←';
  return `[${escapeVisible(redact(agent, secrets), 80)}] ${arrow} ${shown}${more > 0 ? ` … (+${more} chars)` : ''}`;
}

/** A listener writing wire lines for one agent to `write` (stderr by default). Never throws. */
export function wireLogger(
  agent: string,
  secrets: readonly string[],
  write: (line: string) => void = (l) => void process.stderr.write(l + '\n'),
): WireListener {
  return (e) => {
    try {
      write(wireLine(agent, e, secrets));
    } catch {
      /* a log line is never worth a failed run */
    }
  };
}
