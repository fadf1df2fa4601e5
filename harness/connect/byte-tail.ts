// The last bytes of a stream (a seller's stderr), kept raw and decoded only when read. Decoding and
// concatenating every chunk as it came cost a seller writing 1 GiB on stderr ~7 CPU-s of the harness's
// main thread (a string copy of the tail per 64 KiB read); a copy of the bytes kept costs ~0.3.
import { StringDecoder } from 'node:string_decoder';

/**
 * Where the first character of bytes cut out of a UTF-8 stream begins: past the continuation bytes
 * (10xxxxxx, at most 3) of a character that began before the cut.
 */
export function charStart(bytes: Uint8Array): number {
  let start = 0;
  while (start < Math.min(3, bytes.length) && (bytes[start]! & 0xc0) === 0x80) start++;
  return start;
}

export class ByteTail {
  private buf = Buffer.alloc(0);
  private len = 0;
  /** Whether bytes were dropped from the start. */
  private dropped = false;

  /**
   * Keep at least the last `keep` bytes (at most twice that: what is dropped is moved out in one copy
   * per `keep` bytes written, not per chunk). `keep` ≥ 1.
   */
  constructor(private readonly keep: number) {}

  push(chunk: Uint8Array): void {
    let data = chunk;
    if (data.length >= this.keep) {
      if (this.len > 0 || data.length > this.keep) this.dropped = true;
      data = data.subarray(data.length - this.keep);
      this.len = 0;
    }
    if (this.len + data.length > this.buf.length) {
      if (this.buf.length < 2 * this.keep) {
        const grown = Buffer.allocUnsafe(Math.min(2 * this.keep, Math.max(4096, 2 * (this.len + data.length))));
        this.buf.copy(grown, 0, 0, this.len);
        this.buf = grown;
      }
      if (this.len + data.length > this.buf.length) {
        // Full: keep the newest (keep - data.length) bytes, then append. data.length < keep here.
        const old = this.keep - data.length;
        this.buf.copyWithin(0, this.len - old, this.len);
        this.len = old;
        this.dropped = true;
      }
    }
    this.buf.set(data, this.len);
    this.len += data.length;
  }

  /**
   * The last `maxChars` UTF-16 units of the text (bytes decoded as UTF-8, a partial character at the end
   * left out as a streaming decoder would hold it), and whether anything before them was left out. With
   * `keep` ≥ 3 × maxChars, nothing the text needs was dropped (a UTF-8 byte decodes to at least ⅓ of a unit).
   */
  text(maxChars: number): { text: string; cut: boolean } {
    const kept = this.buf.subarray(0, this.len);
    // Bytes were dropped: start at a character's first byte.
    const text = new StringDecoder('utf8').write(this.dropped ? kept.subarray(charStart(kept)) : kept);
    if (text.length <= maxChars) return { text, cut: this.dropped };
    return { text: text.slice(-maxChars), cut: true };
  }
}
