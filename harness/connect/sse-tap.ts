// The SSE body of a streamable-HTTP answer, parsed with the maintained WHATWG parser (eventsource-parser,
// the one the SDK itself uses) BEFORE the SDK reads it: each `message` event's data goes to `admit`
// (the raw tap and the JSON-RPC gate), and only the events it admits are re-serialized for the SDK.
// An event is dispatched only when a blank line closes it: one still open when the stream ends is not an
// answer (the SDK's client discards it), so it is never admitted; `end()` returns it for the record.
// Buffers are bounded by the byte cap the caller enforces on the whole body.
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';

export class SseTap {
  /** Strict until the first byte that is not UTF-8 (reported once), lenient (U+FFFD) from then on. */
  private decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly parser: EventSourceParser;
  /** Re-serialized admitted events not yet handed to the reader. */
  private out: string[] = [];
  private ending = false;
  private unterminated: string | undefined;

  /** `admit` sees the data of each `message` event and says whether the SDK may see it. */
  constructor(
    private readonly admit: (data: string) => boolean,
    private readonly notUtf8: () => void = () => {},
  ) {
    this.parser = createParser({ onEvent: (e) => this.onEvent(e) });
  }

  /** Feed one chunk of the body; returns the SSE text the SDK may read (possibly empty). */
  push(chunk: Uint8Array): string {
    this.parser.feed(this.decode(chunk));
    return this.take();
  }

  private decode(chunk?: Uint8Array): string {
    try {
      return chunk ? this.decoder.decode(chunk, { stream: true }) : this.decoder.decode();
    } catch {
      // The first byte that is not UTF-8: say so once, then read on as a lenient decoder would (a
      // character split across this chunk's start is lost with it).
      this.notUtf8();
      this.decoder = new TextDecoder('utf-8');
      return chunk ? this.decoder.decode(chunk, { stream: true }) : '';
    }
  }

  /**
   * The body ended. Returns the data of an event that was still open (no blank line after it), which
   * was NOT admitted, or undefined when the stream ended cleanly.
   */
  end(): string | undefined {
    const rest = this.decode();
    if (rest) this.parser.feed(rest);
    this.out = [];
    // Closing the open event by hand shows what it held; `ending` keeps it from being admitted.
    this.ending = true;
    this.parser.feed('\n\n');
    this.parser.reset();
    return this.unterminated;
  }

  private take(): string {
    if (this.out.length === 0) return '';
    const text = this.out.join('');
    this.out = [];
    return text;
  }

  private onEvent(e: EventSourceMessage): void {
    const isMessage = e.event === undefined || e.event === 'message';
    if (this.ending) {
      if (isMessage && e.data !== '') this.unterminated ??= e.data;
      return;
    }
    if (isMessage && e.data !== '' && !this.admit(e.data)) return;
    this.out.push(serialize(e));
  }
}

/** One event in wire form (the parser has already split lines, so no field holds a CR or LF but data's joins). */
function serialize(e: EventSourceMessage): string {
  let text = '';
  if (e.id !== undefined) text += `id: ${e.id}\n`;
  if (e.event !== undefined) text += `event: ${e.event}\n`;
  for (const line of e.data.split('\n')) text += `data: ${line}\n`;
  return `${text}\n`;
}
