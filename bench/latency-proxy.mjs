#!/usr/bin/env node
// A loopback HTTP proxy that holds every request for a fixed latency before forwarding it to one upstream
// MCP endpoint: a seller "50 ms away". Any path is forwarded to the upstream's path, so many agent URLs
// (/a0/mcp, /a1/mcp, …) can share one seller. It counts the requests it forwarded:
//   GET /__bench/count → {"requests": n}     POST /__bench/reset → zero it
//   node bench/latency-proxy.mjs UPSTREAM_URL LATENCY_MS   prints `PORT <n>` once listening
import { createServer, request } from 'node:http';

const [upstreamText, latencyText] = process.argv.slice(2);
const upstream = new URL(upstreamText);
const latency = Number(latencyText ?? 50);
let requests = 0;

const server = createServer((req, res) => {
  if (req.url === '/__bench/count') return void res.end(JSON.stringify({ requests }));
  if (req.url === '/__bench/reset') {
    requests = 0;
    return void res.end('{}');
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    requests++;
    setTimeout(() => {
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: upstream.pathname,
          method: req.method,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      forward.end(Buffer.concat(chunks));
    }, latency);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`PORT ${server.address().port}`));
process.stdin.on('end', () => process.exit(0)); // dies with the bench (its stdin is a pipe)
process.stdin.resume();
