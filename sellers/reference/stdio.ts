// The seller over stdio: MCP on stdin/stdout, logs on stderr only (the `stdout-logs` fault aside).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { faultNames, type SellerConfig } from './options.ts';
import { writePieces } from './streamed-answer.ts';
import { createSellerServer, transportFault } from './server.ts';
import { SellerState } from './state.ts';
import { CALL_TARGET } from '../faults/_kit.ts';

export async function startStdio(config: SellerConfig): Promise<void> {
  const logToStdout = transportFault(config, 'stdio-stdout');
  const rootsRequest = transportFault(config, 'stdio-undeclared-request');
  let requests = 0;
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
    // A streamed answer is one JSON line like any other (calls come one at a time from the harness).
    stream: (pieces) => writePieces(process.stdout, withNewline(pieces)),
  });
  await server.connect(new StdioServerTransport());
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
