// The one error a bad config produces: file, JSON pointer, what was expected — one line (exit code 2).

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    /** JSON pointer into the document ('' is the whole document, shown as '/'). */
    readonly pointer: string,
    readonly expected: string,
  ) {
    super(`${file}: ${pointer || '/'}: ${expected}`.replace(/[\r\n]+/g, ' '));
    this.name = 'ConfigError';
  }
}

/** RFC 6901 escaping of one pointer segment. */
export function pointerSegment(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(...keys: Array<string | number>): string {
  return keys.map((k) => `/${pointerSegment(k)}`).join('');
}
