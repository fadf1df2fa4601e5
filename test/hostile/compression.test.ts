// Hostile battery · compression bombs: endless gzip / deflate / br bodies (JSON, SSE, a 500's error
// page) and a body that claims gzip but is not. The byte cap counts inflated bytes while reading, so
// each call stops at the cap (or the error page at its excerpt) with memory bounded.
import { describe, expect, test } from 'vitest';
import { expectContained, expectFinding, family, http, runHostile } from './battery.ts';

// The bombs get a longer call timeout: on a loaded machine, inflating up to the cap can take longer than
// the battery's 2 s, and these tests are about the cap, not the timeout.
const bombTimeouts = { timeouts: { call: 8000, agent: 20_000 } };
const bombs = family('compression', [
  http('gzip-bomb', bombTimeouts),
  http('deflate-bomb', bombTimeouts),
  http('deflate-raw-bomb', bombTimeouts),
  http('br-bomb', bombTimeouts),
  http('gzip-bomb-sse', bombTimeouts),
  http('gzip-bomb-error-init'),
  http('gzip-invalid'),
  http('gzip-chain'),
]);

describe.concurrent('compression bombs', () => {
  test('the run stays bounded, reports are valid, nothing leaks', async () => {
    expectContained(await bombs.of('gzip-bomb'));
  });

  for (const behaviour of ['gzip-bomb', 'deflate-bomb', 'deflate-raw-bomb', 'br-bomb', 'gzip-bomb-sse']) {
    test(`${behaviour}: the call stops at the byte cap on inflated bytes`, async () => {
      const run = await bombs.of(behaviour);
      const o = expectFinding(run, behaviour, 'transport.call', /oversize: answer passed the 1114112-byte cap/);
      // It stopped near the cap, not after inflating the whole bomb.
      const read = Number(/\((\d+) bytes read\)/.exec(o.found ?? '')?.[1]);
      expect(read).toBeLessThan(1114112 + 4 * 1024 * 1024);
    });
  }

  test('gzip-bomb-error-init: an HTTP 500 with an endless gzip page fails initialize, quoting only its start', async () => {
    const run = await bombs.of('gzip-bomb-error-init');
    const o = expectFinding(run, 'gzip-bomb-error-init', 'transport.initialize', /HTTP 500/);
    expect((o.found ?? '').length).toBeLessThan(1000);
  });

  test('gzip-invalid: a body that is not the gzip it claims fails the call', async () => {
    const run = await bombs.of('gzip-invalid');
    expectFinding(
      run,
      'gzip-invalid',
      'transport.call',
      /(closed|network|protocol): .*(incorrect header check|unexpected end|terminated|Decompression|zlib|gzip)/i,
    );
  });

  test('gzip-chain: six content codings are refused (more than a client undoes), the call fails naming them', async () => {
    expectFinding(await bombs.of('gzip-chain'), 'gzip-chain', 'transport.call', /too many content-encodings/);
  });

  test('gzip-bomb, run alone with re-verification: the call asked again meets the same cap', async () => {
    const run = await runHostile('gzip-bomb-alone', [http('gzip-bomb')]);
    expectContained(run);
    expectFinding(run, 'gzip-bomb', 'transport.call', /oversize: answer passed the 1114112-byte cap/);
  });
});
