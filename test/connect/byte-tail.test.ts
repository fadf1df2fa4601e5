// The stderr tail kept as raw bytes (harness/connect/byte-tail.ts) against the plain way: every chunk
// decoded by one streaming decoder, the text kept whole, its last characters taken. Same text, same "cut",
// for any chunking, for valid UTF-8 of every width and for arbitrary bytes.
import { StringDecoder } from 'node:string_decoder';
import { describe, expect, test } from 'vitest';
import { ByteTail } from '../../harness/connect/byte-tail.ts';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function reference(chunks: Buffer[], maxChars: number): { text: string; cut: boolean } {
  const decoder = new StringDecoder('utf8');
  let text = '';
  for (const c of chunks) text += decoder.write(c);
  return text.length > maxChars ? { text: text.slice(-maxChars), cut: true } : { text, cut: false };
}

/** A stream of `bytes` bytes cut into chunks of 1 to `maxChunk` bytes. */
function chunked(stream: Buffer, rand: () => number, maxChunk: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < stream.length;) {
    const n = 1 + Math.floor(rand() * maxChunk);
    out.push(stream.subarray(at, at + n));
    at += n;
  }
  return out;
}

const CHARS = ['a', '\n', 'é', 'ж', '€', '中', '😀', '𝄞'];

function utf8Stream(rand: () => number, chars: number): Buffer {
  let s = '';
  for (let i = 0; i < chars; i++) s += CHARS[Math.floor(rand() * CHARS.length)];
  return Buffer.from(s, 'utf8');
}

function randomBytes(rand: () => number, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(rand() * 256);
  return b;
}

function tailOf(chunks: Buffer[], keep: number, maxChars: number): { text: string; cut: boolean } {
  const tail = new ByteTail(keep);
  for (const c of chunks) tail.push(c);
  return tail.text(maxChars);
}

describe('ByteTail', () => {
  test('nothing written: empty, not cut', () => {
    expect(new ByteTail(30).text(10)).toEqual({ text: '', cut: false });
  });

  const streams = [
    {
      what: 'valid UTF-8 of every width',
      seed: 7,
      maxChunk: 700,
      make: (rand: () => number) => utf8Stream(rand, Math.floor(rand() * 1500)),
    },
    {
      what: 'arbitrary bytes (invalid UTF-8 included)',
      seed: 11,
      maxChunk: 900,
      make: (rand: () => number) => randomBytes(rand, Math.floor(rand() * 2000)),
    },
  ];
  test.for(streams)('$what, any chunking: the same tail and cut as decoding everything', ({ seed, maxChunk, make }) => {
    const rand = prng(seed);
    for (let round = 0; round < 300; round++) {
      const maxChars = 1 + Math.floor(rand() * 200);
      const chunks = chunked(make(rand), rand, 1 + Math.floor(rand() * maxChunk));
      expect(tailOf(chunks, 3 * maxChars, maxChars), `round ${round}`).toEqual(reference(chunks, maxChars));
    }
  });

  test('one chunk far longer than what is kept, then small ones', () => {
    const big = Buffer.from('€'.repeat(10_000) + 'end-of-big\n', 'utf8');
    const chunks = [Buffer.from('start\n'), big, Buffer.from('after 1\n'), Buffer.from('after 2\n')];
    expect(tailOf(chunks, 3 * 50, 50)).toEqual(reference(chunks, 50));
    expect(tailOf(chunks, 3 * 50, 50).text.endsWith('end-of-big\nafter 1\nafter 2\n')).toBe(true);
  });

  test('cut exactly at what is kept: still cut; a cut inside a character starts at the next one', () => {
    // 3-byte characters one per chunk, 30 bytes kept (60 at most): the 21st chunk moves the newest 27
    // bytes to the front, so exactly 10 characters are held, maxChars of them, and the text is cut.
    const euros = Array.from({ length: 21 }, () => Buffer.from('€'));
    expect(tailOf(euros, 30, 10)).toEqual({ text: '€'.repeat(10), cut: true });
    // One chunk longer than what is kept: its last 31 bytes start with the last byte of a character,
    // skipped (no U+FFFD in the text).
    expect(tailOf([Buffer.from('€'.repeat(20))], 31, 11)).toEqual({ text: '€'.repeat(10), cut: true });
  });

  test('memory stays within twice what is kept, whatever was written', () => {
    const tail = new ByteTail(1024);
    const chunk = Buffer.alloc(700, 0x61);
    for (let i = 0; i < 10_000; i++) tail.push(chunk);
    const internal = (tail as unknown as { buf: Buffer }).buf;
    expect(internal.length).toBeLessThanOrEqual(2048);
    expect(tail.text(300)).toEqual({ text: 'a'.repeat(300), cut: true });
  });
});
