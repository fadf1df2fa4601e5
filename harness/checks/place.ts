// Where a finding is, said to a person. Checks point into the recorded capture: a pointer into what the
// seller sent (`/result/structuredContent/products/0/name`, `/error/data`, `/tools/3/name`) helps and is
// kept; a pointer into the harness's own record (`/exchanges/4/…`, `/outcome/failure`, `/stdio/stdoutJunk/0`,
// `/http/observations/2/status`, `/scenarios/1/refusal/status`, `/protocolViolations/0`) means nothing
// outside it and becomes words.

export interface Place {
  /** A JSON pointer into the seller's own answer, when there is one. */
  pointer?: string;
  /** Words for where it is: before the pointer (`in the initialize answer`) or in its place. */
  words?: string;
}

const HEADER: Record<string, string> = {
  contentType: "in the answer's Content-Type header",
  sessionId: "in the answer's Mcp-Session-Id header",
  wwwAuthenticate: "in the answer's WWW-Authenticate header",
  status: 'in the HTTP status of the answer',
};

export function placeOf(pointer: string): Place {
  // A step of a scenario: the outcome's subject names the call; what follows is a pointer into its answer.
  const step = /^\/exchanges\/\d+(\/.*)?$/.exec(pointer);
  if (step) return placeOf(step[1] ?? '');
  if (pointer === '/outcome/failure' || pointer.startsWith('/outcome/failure/')) return { words: 'on the call' };
  if (pointer === '/aborted') return { words: 'in the session' };
  if (pointer.startsWith('/protocolViolations')) return { words: 'on the wire' };
  if (pointer.startsWith('/stdio/stdoutJunk')) return { words: "on the server's stdout" };
  if (pointer === '/initialize') return { words: 'at initialize' };
  if (pointer.startsWith('/initialize/'))
    return { words: 'in the initialize answer', pointer: `/result${pointer.slice('/initialize'.length)}` };
  const http = /^\/(?:http\/observations\/\d+|scenarios\/\d+\/refusals?(?:\/\d+)?)(?:\/([^/]+))?/.exec(pointer);
  if (http) return { words: HEADER[http[1] ?? ''] ?? 'in the HTTP answer' };
  return { pointer };
}

/** `at /pointer`, `in the initialize answer at /result/protocolVersion`, or the words alone. */
export function placeText(place: Place): string {
  if (place.pointer === undefined) return place.words ?? 'at /';
  const at = `at ${place.pointer || '/'}`;
  return place.words ? `${place.words} ${at}` : at;
}
