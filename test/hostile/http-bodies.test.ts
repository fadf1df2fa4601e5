// Hostile battery · broken HTTP bodies: a stream cut inside an SSE event or a JSON body, an HTML page
// served as a 200 (to a call and to initialize), an HTML page labelled application/json, and an SSE
// stream that answers a request before it was sent, and answers that are not UTF-8. None is taken for
// an answer; each is named.
import { describe, expect, test } from 'vitest';
import { agentOf, expectContained, expectFinding, family, http } from './battery.ts';

const bodies = family('http-bodies', [
  http('sse-closes-mid-event'),
  http('json-closes-mid-body'),
  http('html-200'),
  http('html-200-init'),
  http('json-type-html-body'),
  http('sse-answers-ahead'),
  http('invalid-utf8-json'),
  http('invalid-utf8-sse'),
]);

describe.concurrent('broken HTTP bodies', () => {
  test('the run stays bounded, reports are valid, nothing leaks', async () => {
    expectContained(await bodies.of('html-200'));
  });

  test('sse-closes-mid-event: a stream cut inside an event is no answer, at once', async () => {
    const run = await bodies.of('sse-closes-mid-event');
    expectFinding(run, 'sse-closes-mid-event', 'transport.call', /(closed|protocol|network): .*(SSE|terminated|socket|closed)/i);
    const took = run.report!.agents.find((a) => a.name === 'sse-closes-mid-event')!.outcomes.find((o) => o.check === 'transport.call') as {
      durationMs?: number;
    };
    expect(took.durationMs ?? 0).toBeLessThan(1500); // not the call timeout
  });

  test('json-closes-mid-body: a body shorter than its Content-Length fails the call', async () => {
    expectFinding(
      await bodies.of('json-closes-mid-body'),
      'json-closes-mid-body',
      'transport.call',
      /(closed|network): .*(terminated|socket|closed|other side)/i,
    );
  });

  test('html-200: an HTML page as a 200 answer to a call is named by its content type', async () => {
    const run = await bodies.of('html-200');
    expectFinding(run, 'html-200', 'transport.call', /http-status: HTTP 200 with content type text\/html/);
    expectFinding(run, 'html-200', 'transport.http-response', /text\/html/);
  });

  test('html-200-init: an HTML page answering initialize fails the handshake', async () => {
    expectFinding(await bodies.of('html-200-init'), 'html-200-init', 'transport.initialize', /text\/html/);
  });

  test('json-type-html-body: HTML labelled application/json is a parse failure, not an answer', async () => {
    expectFinding(
      await bodies.of('json-type-html-body'),
      'json-type-html-body',
      'transport.call',
      /(protocol|network): .*(JSON|Unexpected token)/,
    );
  });

  test('sse-answers-ahead: an answer to a request not yet sent is named and never satisfies the later call', async () => {
    const run = await bodies.of('sse-answers-ahead');
    expectFinding(run, 'sse-answers-ahead', 'transport.jsonrpc', /an answer to id \d+, which the harness never sent/);
  });

  for (const behaviour of ['invalid-utf8-json', 'invalid-utf8-sse']) {
    test(`${behaviour}: an answer that is not UTF-8 is named, and read with U+FFFD`, async () => {
      const run = await bodies.of(behaviour);
      expectFinding(run, behaviour, 'transport.jsonrpc', /a message \((a JSON body|an SSE stream)\) was not valid UTF-8/);
      expect(agentOf(run, behaviour).outcomes.find((o) => o.check === 'transport.call')?.status).toBe('pass');
    });
  }
});
