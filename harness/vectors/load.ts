// Reading a vector file: ours or the official AdCP format, both `{version, description, vectors:[…]}`.
import { readFile, stat } from 'node:fs/promises';
import { own } from '../json.ts';

/** Vector files are small; a cap keeps a wrong path (a log, an image) from being read whole. */
export const MAX_VECTOR_FILE_BYTES = 64 * 1024 * 1024;

export type LoadedFile = { ok: true; file: string; vectors: unknown[] } | { ok: false; file: string; message: string };

export async function loadVectorFile(file: string): Promise<LoadedFile> {
  let text: string;
  try {
    const info = await stat(file);
    if (!info.isFile()) return { ok: false, file, message: `${file}: not a file` };
    if (info.size > MAX_VECTOR_FILE_BYTES)
      return { ok: false, file, message: `${file}: ${info.size} bytes, larger than ${MAX_VECTOR_FILE_BYTES}` };
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = own(err, 'code');
    return {
      ok: false,
      file,
      message: `${file}: cannot read (${typeof code === 'string' ? code : err instanceof Error ? err.message : String(err)})`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { ok: false, file, message: `${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  const vectors = own(parsed, 'vectors');
  if (!Array.isArray(vectors)) return { ok: false, file, message: `${file}: expected an object with a "vectors" array` };
  return { ok: true, file, vectors };
}
