// `node --import ./bench/rss-preload.mjs …`: when the process exits, write its peak resident set size
// (getrusage maxRSS: the whole process, worker threads included) in KiB to $BENCH_RSS_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
