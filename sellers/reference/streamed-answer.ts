// A tools/call answer written piece by piece: the 50 MiB fault streams its padding so the first bytes
// leave at once (building and serializing 50 MiB first takes seconds, which would turn the harness's
// byte-cap abort into a timeout) and the seller never holds the whole message in memory.
import { successResult } from './envelope.ts';
import type { JsonObject } from './json.ts';
import type { ToolSpec } from './tools.ts';

const MARKER = 'reference_seller_padding';
const CHUNK = 'x'.repeat(64 * 1024);

/**
 * The JSON-RPC response for `id` whose result is the tool's success result for `payload`, with
 * `payload.ext.reference_seller_padding` grown so the serialized structuredContent has `bytes` bytes.
 */
export function* streamedAnswer(id: string | number, spec: ToolSpec, payload: JsonObject, bytes: number): Generator<string> {
  const ext: JsonObject = { [MARKER]: '' };
  payload['ext'] = ext;
  const result = successResult(spec, payload, { shape: 'root', text: 'summary' });
  const message = JSON.stringify({ jsonrpc: '2.0', id, result });
  const hole = `"${MARKER}":""`;
  const at = message.indexOf(hole) + hole.length - 1; // just before the closing quote
  const padding = Math.max(0, bytes - Buffer.byteLength(JSON.stringify(payload), 'utf8'));
  yield message.slice(0, at);
  for (let left = padding; left > 0; left -= CHUNK.length) yield left >= CHUNK.length ? CHUNK : CHUNK.slice(0, left);
  yield message.slice(at);
}

/** Writes the pieces to `out`, honouring backpressure; stops early when `out` is gone. */
export async function writePieces(
  out: { write(chunk: string): boolean; once(event: 'drain' | 'close' | 'error', cb: () => void): unknown; destroyed?: boolean },
  pieces: Iterable<string>,
): Promise<void> {
  for (const piece of pieces) {
    if (out.destroyed) return;
    if (!out.write(piece)) {
      const open = await new Promise<boolean>((resolve) => {
        out.once('drain', () => resolve(true));
        out.once('close', () => resolve(false));
        out.once('error', () => resolve(false));
      });
      if (!open) return;
    }
  }
}
