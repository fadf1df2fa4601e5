// Undoing a response's Content-Encoding, as WHATWG fetch does (undici's fetch, which the harness used
// before it spoke to undici's dispatcher directly): gzip / x-gzip, deflate (zlib-wrapped or raw, told
// by its first byte), br; decoded leniently (Z_SYNC_FLUSH, as curl and browsers); more than five codings
// refused (CVE-2022-32206); an unknown coding leaves the body as it came. The byte cap is counted on
// what this yields, so a compression bomb stops at the cap (connect/http-fetch.ts).
import type { Readable } from 'node:stream';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';

export const ACCEPT_ENCODING = 'br, gzip, deflate';
const MAX_CODINGS = 5;
/** Statuses whose body is never decoded (fetch: null-body statuses). */
const UNDECODED = new Set([101, 204, 205, 304]);

/** The body with its content codings undone; throws (body destroyed) past five codings. */
export function decodedBody(body: Readable, status: number, contentEncoding: string | string[] | undefined): Readable {
  const header = Array.isArray(contentEncoding) ? contentEncoding.join(',') : contentEncoding;
  if (!header || UNDECODED.has(status)) return body;
  const codings = header.toLowerCase().split(',');
  if (codings.length > MAX_CODINGS) {
    body.destroy();
    throw new Error(`too many content-encodings in response: ${codings.length}, maximum allowed is ${MAX_CODINGS}`);
  }
  const decoders: Transform[] = [];
  for (let i = codings.length - 1; i >= 0; --i) {
    const decoder = decoderFor(codings[i]!.trim());
    if (!decoder) {
      for (const d of decoders) d.destroy();
      return body;
    }
    decoders.push(decoder);
  }
  if (!decoders.length) return body;
  // pipeline() carries an error of any stage to the last one, which the reader sees; the callback only
  // keeps that error from being thrown a second time.
  return pipeline([body, ...decoders], () => {}) as unknown as Readable;
}

function decoderFor(coding: string): Transform | undefined {
  if (coding === 'gzip' || coding === 'x-gzip')
    return zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  if (coding === 'deflate') return new Inflate();
  if (coding === 'br')
    return zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  return undefined;
}

/** "deflate" is zlib-wrapped by the RFC and often raw in practice: the first byte tells which. */
class Inflate extends Transform {
  private inflate: zlib.Inflate | zlib.InflateRaw | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.inflate) {
      if (chunk.length === 0) return callback();
      const options = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
      const inflate = (chunk[0]! & 0x0f) === 0x08 ? zlib.createInflate(options) : zlib.createInflateRaw(options);
      inflate.on('data', (data: Buffer) => this.push(data));
      inflate.on('end', () => this.push(null));
      inflate.on('error', (err) => this.destroy(err));
      this.inflate = inflate;
    }
    this.inflate.write(chunk, callback);
  }

  override _final(callback: TransformCallback): void {
    this.inflate?.end();
    callback();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.inflate?.destroy();
    callback(err);
  }
}
