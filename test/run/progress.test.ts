import { Writable } from 'node:stream';
import { expect, test } from 'vitest';
import { createProgress } from '../../harness/run/progress.ts';

function sink(tty: boolean): Writable & { isTTY: boolean; rows: number; columns: number; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return Object.assign(stream, { isTTY: tty, rows: 40, columns: 80, text: () => chunks.join('') });
}

test('plain lines when not a TTY, with seller-chosen step text made safe', () => {
  const out = sink(false);
  const p = createProgress(['a', 'bb'], out, {}, ['hunter22']);
  p.update('a', 'call get_products_hunter22');
  p.update('bb', 'call evil\u001b[2J\nforged line');
  p.close();
  expect(out.text()).toBe('a      call get_products_[REDACTED]\nbb     call evil[2J forged line\n');
});

test('plain lines under CI even on a TTY', () => {
  const out = sink(true);
  createProgress(['a'], out, { CI: 'true' }).update('a', 'connect');
  expect(out.text()).toBe('a      connect\n');
});

test('on a TTY, one line per agent redrawn in place', () => {
  const out = sink(true);
  const p = createProgress(['a', 'b'], out, {});
  p.update('a', 'connect');
  p.update('b', 'tools/list');
  const text = out.text();
  expect(text.startsWith('\u001b[2Ka      connect\n\u001b[2Kb      waiting\n')).toBe(true);
  expect(text.endsWith('\u001b[2F\u001b[2Ka      connect\n\u001b[2Kb      tools/list\n')).toBe(true);
});
