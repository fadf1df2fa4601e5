// The seller over stdio: MCP on stdin/stdout, logs on stderr only (the `stdout-logs` fault aside).
import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { faultNames, type SellerConfig } from './options.ts';
import { writePieces } from './streamed-answer.ts';
import { loadInputValidators } from './validate-input.ts';
import { createSellerServer, transportFault } from './server.ts';
import { SellerState } from './state.ts';
import { CALL_TARGET } from '../faults/_kit.ts';

export async function startStdio(config: SellerConfig): Promise<void> {
  await loadInputValidators();
  const logToStdout = transportFault(config, 'stdio-stdout');
  const rootsRequest = transportFault(config, 'stdio-undeclared-request');
  let requests = 0;
  const stdout = orderedStdout();
  const server = createSellerServer(config, new SellerState(), {
    // Written synchronously before the SDK writes the answer on the same stream: ordered.
    beforeAnswer: logToStdout
      ? (tool) => void process.stdout.write(`[reference-seller] answering tools/call ${tool}\n`)
      : rootsRequest
        ? // A server-to-client request for a capability the client never declared (roots), written raw so the SDK cannot refuse it.
          (tool) =>
            void (
              tool === CALL_TARGET &&
              process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: `reference-roots-${++requests}`, method: 'roots/list' })}\n`)
            )
        : undefined,
    // A streamed answer is one JSON line like any other: queued with the SDK's own writes (see below).
    stream: (pieces) => stdout.enqueue(() => writePieces(process.stdout, withNewline(pieces))),
  });
  await server.connect(new StdioServerTransport(process.stdin, stdout.writable));
  // The client closing our stdin ends the session (a hung call must not keep the process alive).
  process.stdin.on('end', () => {
    void server.close().finally(() => process.exit(0));
  });
  process.stderr.write(`reference-seller: serving MCP on stdio (faults: ${faultNames(config)})\n`);
}

function* withNewline(pieces: Iterable<string>): Generator<string> {
  yield* pieces;
  yield '\n';
}

/**
 * One queue for everything written to stdout. A streamed 50 MiB answer is written piece by piece; the
 * harness cuts that call and sends the next one while the pieces still flow, and an answer written
 * meanwhile would land inside the streamed line and break the framing of both.
 */
function orderedStdout(): { writable: Writable; enqueue(write: () => Promise<void>): Promise<void> } {
  let tail: Promise<void> = Promise.resolve();
  const enqueue = (write: () => Promise<void>): Promise<void> => (tail = tail.then(write, write));
  const writable = new Writable({
    write(chunk: Buffer, _encoding, done) {
      void enqueue(() => writePieces(process.stdout, [chunk.toString('utf8')])).then(() => done(), done);
    },
  });
  return { writable, enqueue };
}
