// The judge worker's current step, shared through a SharedArrayBuffer (harness/run/judge/judge-progress.ts).
import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { PROGRESS_BYTES, progressWriter, readRunning } from '../../harness/run/judge/judge-progress.ts';

describe('judge progress', () => {
  test('nothing written: nothing running', () => {
    expect(readRunning(new SharedArrayBuffer(PROGRESS_BYTES))).toEqual({});
  });

  test('a check step, then a schema step within it; the next check clears the schema step', () => {
    const buffer = new SharedArrayBuffer(PROGRESS_BYTES);
    const w = progressWriter(buffer);
    w.check('schema.output-conformance', 'get_products (invalid input)');
    expect(readRunning(buffer)).toEqual({ check: { check: 'schema.output-conformance', subject: 'get_products (invalid input)' } });
    w.schema({ action: 'validate', tool: 'get_products', schema: 'outputSchema', patterns: 'pattern "^(a+)+$" at /properties/x' });
    expect(readRunning(buffer)).toEqual({
      check: { check: 'schema.output-conformance', subject: 'get_products (invalid input)' },
      schema: { action: 'validate', tool: 'get_products', schema: 'outputSchema', patterns: 'pattern "^(a+)+$" at /properties/x' },
    });
    w.check('envelope.flat', 'the session');
    expect(readRunning(buffer)).toEqual({ check: { check: 'envelope.flat', subject: 'the session' } });
  });

  test('a seller’s long tool name is cut at the region, never mid-character', () => {
    const buffer = new SharedArrayBuffer(PROGRESS_BYTES);
    progressWriter(buffer).check('envelope.flat', 'é'.repeat(5000));
    const subject = readRunning(buffer).check?.subject ?? '';
    expect(subject.length).toBeGreaterThan(500);
    expect(subject.length).toBeLessThan(2048);
    expect(/^é+$/.test(subject)).toBe(true);
  });

  test('a writer stopped mid-write (its worker terminated) leaves its last bytes, read as they are', () => {
    const buffer = new SharedArrayBuffer(PROGRESS_BYTES);
    progressWriter(buffer).check('envelope.flat', 'get_products');
    Atomics.add(new Int32Array(buffer, 0, 4), 0, 1); // the next write began and never ended
    expect(readRunning(buffer)).toEqual({ check: { check: 'envelope.flat', subject: 'get_products' } });
  });

  test('read from another thread while the worker writes, and after it is gone', async () => {
    const buffer = new SharedArrayBuffer(PROGRESS_BYTES);
    const url = new URL('../../harness/run/judge/judge-progress.ts', import.meta.url).href;
    const worker = new Worker(
      `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(url)}); }).then(({ progressWriter }) => {
        const { workerData, parentPort } = require('node:worker_threads');
        const w = progressWriter(workerData);
        for (let i = 0; i < 20000; i++) w.check('check.' + i, 'tool ' + i);
        parentPort.postMessage('done');
      });`,
      { eval: true, workerData: buffer },
    );
    const seen: string[] = [];
    const done = new Promise((resolve) => worker.once('message', resolve));
    const poll = setInterval(() => {
      const r = readRunning(buffer);
      if (r.check) seen.push(`${r.check.check}|${r.check.subject}`);
    }, 0);
    await done;
    clearInterval(poll);
    await worker.terminate();
    for (const s of seen) expect(s).toMatch(/^check\.(\d+)\|tool \1$/); // never half of one step and half of another
    expect(readRunning(buffer)).toEqual({ check: { check: 'check.19999', subject: 'tool 19999' } });
  });
});
