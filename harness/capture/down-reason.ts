// Why an agent could not be reached, in the terms a person fixes it by: the cause, one line of what
// happened, one line of what to do. Read off the recorded capture only (the initialize failure and the
// stdio facts), so a replayed recording says exactly what the live run said.
import { STATUS_CODES } from 'node:http';
import type { DownReason } from '../record/down-reason.ts';
import type { AgentCapture, TransportFailure } from '../record/exchange.ts';

/** A line that names an error: `Error: …`, `TypeError [ERR_X]: …`, `ModuleNotFoundError: …`, `FATAL: …`, `panic: …`. */
const ERROR_LINE =
  /^(?:Uncaught\s+)?(?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)(?:\s*\[[\w.-]+\])?:\s*\S|^(?:FATAL|Fatal|fatal|PANIC|panic|ERROR|error)\b\s*[:!]/;
/** Lines that say nothing on their own: stack frames, caret markers, Node's version footer, `throw err;`. */
const NOISE_LINE = /^(?:at\s|\^+$|Node\.js v\d|throw\b|-\s\/|Require stack:|\{$|\}$)/;

/**
 * What a crashed server said, in one line: the LAST error-like line of its stderr (a stack's `Error: …`
 * line, not its head, which is only the source line that threw), else its last meaningful lines.
 */
export function stderrGist(stderr: string, fallbackLines = 3): string | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  for (let i = lines.length - 1; i >= 0; i--) if (ERROR_LINE.test(lines[i]!)) return lines[i];
  const meaningful = lines.filter((l) => !NOISE_LINE.test(l));
  return meaningful.length ? meaningful.slice(-fallbackLines).join(' | ') : undefined;
}

/** The down reason of an agent whose initialize failed (undefined when it answered). */
export function downReason(capture: Pick<AgentCapture, 'agent' | 'initialize' | 'stdio'>): DownReason | undefined {
  const init = capture.initialize;
  if (!init || init.ok !== false) return undefined;
  // A recording is read as it is, whatever its shape: every fact is checked before it is used.
  const raw: Partial<TransportFailure> = init.failure ?? {};
  const f: TransportFailure = {
    kind: raw.kind ?? 'connect',
    message: typeof raw.message === 'string' ? raw.message : String(raw.message ?? ''),
    ...(typeof raw.httpStatus === 'number' ? { httpStatus: raw.httpStatus } : {}),
  };
  const stdio = capture.stdio;
  if (capture.agent?.transport !== 'stdio' || !stdio) return httpDown(f);
  const exit = stdio.exit;
  return stdioDown(f, {
    ...(typeof stdio.spawned === 'boolean' ? { spawned: stdio.spawned } : {}),
    stdoutJunk: Array.isArray(stdio.stdoutJunk) ? stdio.stdoutJunk.map(String) : [],
    stderrTail: typeof stdio.stderrTail === 'string' ? stdio.stderrTail : '',
    ...(exit && typeof exit === 'object' ? { exit: { code: exit.code ?? null, signal: exit.signal ?? null } } : {}),
    ...(stdio.killedBecause !== undefined ? { killedBecause: String(stdio.killedBecause) } : {}),
  });
}

const TLS_CODE = /\b(ERR_SSL_\w+|ERR_TLS_\w+|CERT_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_\w+)\b/;

function httpDown(f: TransportFailure): DownReason {
  const m = f.message;
  if (f.kind === 'http-status') return httpStatusDown(f);
  if (f.kind === 'timeout') return timeoutDown(f, 'http');
  if (f.kind === 'protocol' || f.kind === 'oversize') return protocolDown(f);
  if (/\bECONNREFUSED\b/.test(m)) {
    const at = lastMatch(m, /ECONNREFUSED\s+(\S+)/g);
    return {
      cause: 'connection-refused',
      detail: at ? `connection refused at ${at}` : 'connection refused',
      fix: `is the server running and listening${at ? ` on ${at}` : ''}? start it, or fix the host and port in the URL`,
    };
  }
  const dns = /\b(ENOTFOUND|EAI_AGAIN)\b/.exec(m);
  if (dns) {
    const host = lastMatch(m, /(?:ENOTFOUND|EAI_AGAIN)\s+([^\s:]+)/g);
    const temporary = dns[1] === 'EAI_AGAIN';
    return {
      cause: 'dns',
      detail: `the host name ${host ?? '(unknown)'} ${temporary ? 'could not be resolved right now (DNS lookup failed: EAI_AGAIN)' : 'does not resolve (DNS: ENOTFOUND)'}`,
      fix: 'check the host name in the URL, and that this machine can resolve it (DNS, VPN, /etc/hosts)',
    };
  }
  const tls = TLS_CODE.exec(m) ?? (/SSL routines|certificate|altnames/i.test(m) ? ['', ''] : null);
  if (tls) return tlsDown(m, tls[1] ?? '');
  if (/\bUND_ERR_CONNECT_TIMEOUT\b/.test(m)) {
    return {
      cause: 'timeout',
      detail: 'connect: the TCP connection to the server did not open in time (UND_ERR_CONNECT_TIMEOUT)',
      fix: 'is the host reachable from this machine (firewall, VPN, a port that drops packets)?',
    };
  }
  if (/\bbad port\b/.test(m)) {
    // fetch refuses the ports browsers block (https://fetch.spec.whatwg.org/#port-blocking): no request was made.
    return {
      cause: 'other',
      detail: "the URL's port is one fetch refuses to connect to (a blocked port such as 9, 25 or 6000): no request was sent",
      fix: 'serve the agent on another port (e.g. 8080) and put that in the URL',
    };
  }
  if (/\b(EHOSTUNREACH|ENETUNREACH)\b/.test(m)) {
    return {
      cause: 'other',
      detail: `no route to the server: ${m}`,
      fix: "check the network path to the host (VPN, firewall, the URL's host)",
    };
  }
  if (f.kind === 'closed' || f.kind === 'network') {
    return {
      cause: 'other',
      detail: `the connection failed before initialize was answered: ${m}`,
      fix: "check the server's logs: it dropped the connection (is the URL the MCP endpoint, and a streamable-HTTP one?)",
    };
  }
  return otherDown(m);
}

function httpStatusDown(f: TransportFailure): DownReason {
  const status = f.httpStatus ?? Number(/\bHTTP (\d{3})\b/.exec(f.message)?.[1] ?? NaN);
  // A 2xx whose body is neither JSON nor an event stream (`HTTP 200 with content type text/html: …`): the
  // URL answers, but not as MCP.
  const wrongType = /^HTTP \d{3} with content type (.*?): (.*)$/s.exec(f.message);
  if (wrongType && status >= 200 && status < 300) {
    return {
      cause: 'protocol',
      detail: `initialize got HTTP ${status} with content type ${wrongType[1]}, not JSON or an event stream: ${wrongType[2]}`,
      fix: 'that URL does not answer as MCP (a web page?): point it at the streamable-HTTP MCP endpoint, often /mcp',
    };
  }
  const reason = STATUS_CODES[status];
  // The recorded message: `initialize got HTTP 404 (text/plain); body: …` — keep what follows the content type.
  const tail = /^initialize got HTTP \d{3} \(.*?\); (.*)$/s.exec(f.message)?.[1] ?? '';
  const detail = `initialize got HTTP ${Number.isFinite(status) ? status : '?'}${reason ? ` ${reason}` : ''}${tail ? ` (${tail})` : ''}`;
  return { cause: 'http-status', detail, fix: statusFix(status) };
}

function statusFix(status: number): string {
  if (status === 401)
    return 'the server wants credentials: set its Authorization (or API-key) header in the config; the token may be missing, wrong or expired';
  if (status === 403) return 'the server refused these credentials: check the token and what it is allowed to do';
  if (status === 404 || status === 410) return "nothing answers MCP at that path: check the URL's path (the MCP endpoint, often /mcp)";
  if (status === 405) return 'that URL does not accept POST: point the URL at the streamable-HTTP MCP endpoint (often /mcp)';
  if (status === 406 || status === 415)
    return "the server refused the MCP request's headers: accept `Accept: application/json, text/event-stream` and `Content-Type: application/json`";
  if (status === 429) return 'the server is rate limiting: wait, or ask for a higher limit for this client';
  if (status >= 300 && status < 400) return 'the server redirects: put the final URL (where it redirects to) in the config';
  if (status >= 500) return 'the server failed while answering initialize: check its logs for the error';
  return "check the URL and the server's logs";
}

function tlsDown(message: string, code: string): DownReason {
  const openssl = /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1];
  const what = openssl ?? message.replace(/^[A-Z_]+:\s*/, '').replace(/^fetch failed:\s*/, '');
  const detail = `TLS handshake failed${code ? ` (${code})` : ''}: ${what}`;
  let fix = "check the URL's scheme (https:// needs a TLS server on that port) and the server's certificate";
  if (/wrong version number|WRONG_VERSION_NUMBER|packet length too long/i.test(message))
    fix = 'the server speaks plain HTTP on that port: use an http:// URL, or serve TLS there';
  else if (/self[- ]signed|UNABLE_TO_|unable to (?:verify|get)|SELF_SIGNED|CERT_UNTRUSTED|untrusted/i.test(message))
    fix = "the server's certificate is not trusted here: serve a chain from a trusted CA, or trust its CA with NODE_EXTRA_CA_CERTS";
  else if (/altname|ALTNAME|does not match/i.test(message))
    fix = 'the certificate does not name this host: use the host name it was issued for';
  else if (/expired|CERT_HAS_EXPIRED/i.test(message)) fix = "the server's certificate has expired: renew it";
  return { cause: 'tls', detail, fix };
}

function timeoutDown(f: TransportFailure, transport: 'http' | 'stdio'): DownReason {
  const m = f.message;
  // `initialize: no answer within 800 ms` (ours) → `no answer to initialize within 800 ms`.
  const plain = /^initialize: no answer within (.+)$/.exec(m);
  const detail = plain ? `no answer to initialize within ${plain[1]}` : m;
  const fix =
    transport === 'stdio'
      ? 'does the server read JSON-RPC on stdin and answer on stdout (logs on stderr)? if it only starts slowly, raise the connect timeout (timeouts.connect)'
      : 'is the server answering at that URL (a proxy or firewall can swallow requests)? if it only starts slowly, raise the connect timeout (timeouts.connect)';
  return { cause: 'timeout', detail, fix };
}

function protocolDown(f: TransportFailure, stdoutJunk: readonly string[] = []): DownReason {
  if (stdoutJunk.length) {
    return {
      cause: 'protocol',
      detail: `initialize failed: the server wrote lines that are not JSON-RPC on stdout (first: ${stdoutJunk[0]}); ${f.message}`,
      fix: 'stdout carries only JSON-RPC messages: send logs and banners to stderr',
    };
  }
  if (f.kind === 'oversize') {
    return {
      cause: 'protocol',
      detail: `initialize failed: the server wrote more than the byte cap in one message: ${f.message}`,
      fix: 'answer initialize with one JSON-RPC message within the byte cap (maxBytes); write nothing else first, and logs to stderr',
    };
  }
  return {
    cause: 'protocol',
    detail: `initialize was answered, but not usably: ${f.message}`,
    fix: "answer initialize as MCP's lifecycle says: a protocolVersion the harness supports, capabilities and serverInfo {name, version}",
  };
}

function stdioDown(f: TransportFailure, stdio: NonNullable<AgentCapture['stdio']>): DownReason {
  const m = f.message;
  if (stdio.spawned === false) {
    const cwd = /its working directory (.+) does not exist/.exec(m);
    if (cwd)
      return {
        cause: 'command-not-found',
        detail: `the working directory ${cwd[1]} does not exist`,
        fix: 'check --cwd (or cwd in the config)',
      };
    const missing = /the command (.+) was not found/.exec(m);
    if (missing || /\bENOENT\b/.test(m)) {
      return {
        cause: 'command-not-found',
        detail: missing ? `the command ${missing[1]} was not found` : m,
        fix: 'check the command and its working directory (--cwd, or cwd in the config): a relative path resolves there, a bare name must be on PATH',
      };
    }
    const denied = /the command (.+) is not executable/.exec(m);
    if (denied || /\bEACCES\b/.test(m)) {
      return {
        cause: 'not-executable',
        detail: denied ? `the command ${denied[1]} is not executable (permission denied)` : m,
        fix: 'make it executable (chmod +x), or start it through its interpreter (e.g. node server.js)',
      };
    }
    return otherDown(m);
  }
  if (stdio.killedBecause !== undefined) {
    return {
      cause: 'other',
      detail: `the harness stopped the server: ${stdio.killedBecause}`,
      fix: 'the server must keep reading its stdin while it works',
    };
  }
  if (f.kind === 'protocol' || f.kind === 'oversize') return protocolDown(f, stdio.stdoutJunk);
  const exit = stdio.exit;
  if (exit) {
    const how = exit.signal ? `was killed by signal ${exit.signal}` : `exited with code ${exit.code}`;
    const said = stderrGist(stdio.stderrTail);
    const fix =
      exit.signal === null && exit.code === 0
        ? 'it ended on its own: is this the command that starts the MCP server (it must keep running, serving on stdin/stdout)?'
        : 'run the command yourself, from the same directory, and fix the error it prints';
    return { cause: 'exited', detail: `the server ${how} before answering initialize${said ? `: ${said}` : ''}`, fix };
  }
  if (f.kind === 'timeout') return timeoutDown(f, 'stdio');
  return otherDown(m);
}

function otherDown(message: string): DownReason {
  return { cause: 'other', detail: message, fix: 'check that the server starts and answers MCP where the config points' };
}

/** The first group of the last match of a global regexp. */
function lastMatch(text: string, re: RegExp): string | undefined {
  let last: string | undefined;
  for (const m of text.matchAll(re)) last = m[1];
  return last;
}
