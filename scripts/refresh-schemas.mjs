#!/usr/bin/env node
// `npm run schemas:refresh -- --from <dir|git-dir|url> [--versions 3.1.19,3.0.26,2.5.3 | --latest] [--out DIR]`
//
// Brings the official AdCP JSON Schemas (https://github.com/adcontextprotocol/adcp, Apache-2.0) into
// adcp-schemas/<version>/, one tree per release, and records where each came from in adcp-schemas/SOURCES.json
// (repository + commit or URL, date, sha256 fingerprint and file count per tree). The source is one of:
//   - a checkout of github.com/adcontextprotocol/adcp (the trees are its dist/schemas/<version>/);
//   - a bare git directory of that repository (read with `git archive HEAD dist/schemas/<version>`);
//   - the official schema site, base URL https://adcontextprotocol.org/schemas/ (each tree is walked from its
//     index.json and manifest.json, following every `$ref` inside the tree).
// `--latest` takes the newest stable patch of each supported minor (the repository's or the site's
// dist/schemas/index.json `latest_by_minor`; else the directory listing). `bundled/` and `tmp/` are skipped.
//
// `--prepack` (npm's prepack step, run by `npm pack` and `npm publish`): with ADCP_SCHEMAS_FROM set, refresh
// from it (`--latest`) first. When adcp-schemas/ holds no tree at all (a git clone: the trees are not
// committed), it packs without them and says in one line that the package will judge with the schemas
// bundled in @adcp/sdk only — packing a clone (and `npm install <git URL>`) must work. When trees are
// there, every tree SOURCES.json lists must be present with its recorded fingerprint, or it refuses.
// `--publish` (npm's prepublishOnly step) is as strict as that, and also refuses when no tree is there: a
// published package always carries the official trees.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The minors this harness supports: `--latest` takes the newest stable patch of each. */
export const SUPPORTED_MINORS = ['3.1', '3.0', '2.5'];
const SKIP_DIRS = new Set(['bundled', 'tmp']);
const REPOSITORY = 'adcontextprotocol/adcp';
const MAX_FILES = 5000;
const MAX_FILE_BYTES = 8 * 2 ** 20;
const STABLE = /^\d+\.\d+\.\d+$/;

function usage(message) {
  process.stderr.write(
    `refresh-schemas: ${message}\n` +
      'usage: node scripts/refresh-schemas.mjs --from <checkout|bare-git-dir|https://adcontextprotocol.org/schemas/> ' +
      '[--versions 3.1.19,3.0.26,2.5.3 | --latest] [--out DIR]\n' +
      '       node scripts/refresh-schemas.mjs --prepack   (verify the shipped trees, if any; ADCP_SCHEMAS_FROM=<source> refreshes first)\n' +
      '       node scripts/refresh-schemas.mjs --publish   (the same, and refuse when there is none)\n',
  );
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { out: join(ROOT, 'adcp-schemas'), latest: false, prepack: false, publish: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) usage(`${a} needs a value`);
      return v;
    };
    if (a === '--from') opts.from = value();
    else if (a === '--versions')
      opts.versions = value()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (a === '--latest') opts.latest = true;
    else if (a === '--out') opts.out = resolve(value());
    else if (a === '--prepack') opts.prepack = true;
    else if (a === '--publish') opts.publish = true;
    else if (a === '--help' || a === '-h') usage('help');
    else usage(`unknown option ${a}`);
  }
  return opts;
}

const cmpVersion = (a, b) => {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
};

/** Newest stable patch of each supported minor, from a discovery document or else a version listing. */
function latestOf(discovery, listing) {
  const out = [];
  const byMinor = discovery && typeof discovery.latest_by_minor === 'object' ? discovery.latest_by_minor : {};
  for (const minor of SUPPORTED_MINORS) {
    let v = Object.hasOwn(byMinor, minor) && typeof byMinor[minor] === 'string' ? byMinor[minor] : undefined;
    if (!v || !STABLE.test(v)) {
      v = listing
        .filter((x) => STABLE.test(x) && x.startsWith(`${minor}.`))
        .sort(cmpVersion)
        .pop();
    }
    if (v) out.push(v);
    else process.stderr.write(`refresh-schemas: no stable ${minor}.x release in the source; skipped\n`);
  }
  return out;
}

function git(dir, args, opts = {}) {
  const r = spawnSync('git', ['-C', dir, ...args], { encoding: opts.encoding ?? 'utf8', maxBuffer: 1024 * 2 ** 20 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${String(r.stderr).trim()}`);
  return r.stdout;
}

function isBareGit(dir) {
  if (!existsSync(join(dir, 'HEAD')) || !existsSync(join(dir, 'objects'))) return false;
  const r = spawnSync('git', ['-C', dir, 'rev-parse', '--is-bare-repository'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === 'true';
}

/** Every file under `dir` (relative, `/`-separated), skipping bundled/ and tmp/. */
function listFiles(dir) {
  const out = [];
  const walk = (rel) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(child);
      } else if (e.isFile()) out.push(child);
    }
  };
  walk('');
  return out;
}

/** sha256 over the sorted `path NUL sha256(content) LF` lines of a tree: the tree's fingerprint. */
export function fingerprint(dir) {
  const files = listFiles(dir);
  const h = createHash('sha256');
  for (const f of files)
    h.update(
      `${f}\0${createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex')}\n`,
    );
  return { sha256: h.digest('hex'), files: files.length };
}

function copyTree(from, to) {
  for (const f of listFiles(from)) {
    mkdirSync(dirname(join(to, f)), { recursive: true });
    writeFileSync(join(to, f), readFileSync(join(from, f)));
  }
}

// ---------------------------------------------------------------------------------------------------------
// Sources: each returns { describe, latest(), fetchTree(version, into) → from }.

function checkoutSource(dir) {
  const schemas = existsSync(join(dir, 'dist', 'schemas')) ? join(dir, 'dist', 'schemas') : dir;
  let commit = null;
  const r = spawnSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
  if (r.status === 0) commit = r.stdout.trim();
  const readDiscovery = () => {
    try {
      return JSON.parse(readFileSync(join(schemas, 'index.json'), 'utf8'));
    } catch {
      return undefined;
    }
  };
  return {
    record: { kind: 'checkout', repository: REPOSITORY, commit },
    describe: `checkout ${dir}${commit ? ` at ${commit}` : ''}`,
    latest: () => latestOf(readDiscovery(), readdirSync(schemas)),
    fetchTree(version, into) {
      const at = join(schemas, version);
      if (!existsSync(join(at, 'index.json'))) throw new Error(`${at} has no index.json: no AdCP ${version} tree there`);
      copyTree(at, into);
      return `${REPOSITORY}${commit ? `@${commit}` : ''}:dist/schemas/${version}`;
    },
  };
}

function bareGitSource(dir) {
  const commit = git(dir, ['rev-parse', 'HEAD']).trim();
  return {
    record: { kind: 'git', repository: REPOSITORY, commit },
    describe: `git ${dir} at ${commit}`,
    latest() {
      let discovery;
      try {
        discovery = JSON.parse(git(dir, ['show', `${commit}:dist/schemas/index.json`]));
      } catch {
        discovery = undefined;
      }
      return latestOf(
        discovery,
        git(dir, ['ls-tree', '--name-only', `${commit}:dist/schemas`])
          .split('\n')
          .filter(Boolean),
      );
    },
    fetchTree(version, into) {
      // Blobs read one by one (ls-tree + cat-file --batch), not `git archive`: a partial clone may lack the
      // blobs of bundled/, which are skipped anyway.
      const tree = `${commit}:dist/schemas/${version}`;
      const entries = git(dir, ['ls-tree', '-r', '-z', tree])
        .split('\0')
        .filter(Boolean)
        .map((line) => {
          const [meta, path] = line.split('\t');
          const [, type, sha] = meta.split(' ');
          return { type, sha, path };
        })
        .filter((e) => e.type === 'blob' && !e.path.split('/').some((p) => SKIP_DIRS.has(p)));
      if (!entries.some((e) => e.path === 'index.json'))
        throw new Error(`${REPOSITORY}@${commit} has no dist/schemas/${version}/index.json`);
      if (entries.length > MAX_FILES) throw new Error(`${tree}: more than ${MAX_FILES} files`);
      const r = spawnSync('git', ['-C', dir, 'cat-file', '--batch'], {
        input: entries.map((e) => e.sha).join('\n') + '\n',
        maxBuffer: 1024 * 2 ** 20,
      });
      if (r.status !== 0) throw new Error(`git cat-file: ${String(r.stderr).trim()}`);
      const out = r.stdout;
      let at = 0;
      for (const e of entries) {
        const nl = out.indexOf(10, at);
        const header = out.subarray(at, nl).toString('utf8');
        const [sha, type, size] = header.split(' ');
        if (sha !== e.sha || type !== 'blob') throw new Error(`${tree}/${e.path}: ${header}`);
        const body = out.subarray(nl + 1, nl + 1 + Number(size));
        mkdirSync(dirname(join(into, e.path)), { recursive: true });
        writeFileSync(join(into, e.path), body);
        at = nl + 1 + Number(size) + 1;
      }
      return `${REPOSITORY}@${commit}:dist/schemas/${version}`;
    },
  };
}

async function getJson(url) {
  const res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  const text = await res.text();
  if (text.length > MAX_FILE_BYTES) throw new Error(`GET ${url}: larger than ${MAX_FILE_BYTES} bytes`);
  return { json: JSON.parse(text), text };
}

/** Every `$ref` string in a JSON document. */
function refsOf(node, out = []) {
  if (Array.isArray(node)) for (const v of node) refsOf(v, out);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  return out;
}

function siteSource(base) {
  const root = base.replace(/\/+$/, '').replace(/\/index\.json$/, '');
  return {
    record: { kind: 'url', url: `${root}/` },
    describe: `${root}/`,
    async latest() {
      const { json } = await getJson(`${root}/index.json`);
      const listing = Array.isArray(json.versions)
        ? json.versions.filter((e) => e && e.prerelease !== true && typeof e.version === 'string').map((e) => e.version)
        : [];
      return latestOf(json, listing);
    },
    async fetchTree(version, into) {
      const treeUrl = new URL(`${root}/${version}/`);
      const queue = ['index.json', 'manifest.json'];
      const seen = new Set(queue);
      while (queue.length) {
        const rel = queue.shift();
        let got;
        try {
          got = await getJson(new URL(rel, treeUrl).href);
        } catch (e) {
          if (rel === 'manifest.json') continue; // older trees have none
          throw e;
        }
        mkdirSync(dirname(join(into, rel)), { recursive: true });
        writeFileSync(join(into, rel), got.text);
        // The index and manifest name schemas by absolute `/schemas/<v>/…` paths; schemas by relative ones.
        const strings = rel === 'index.json' || rel === 'manifest.json' ? allStrings(got.json) : refsOf(got.json);
        for (const ref of strings) {
          const target = ref.split('#')[0];
          if (!target || !target.endsWith('.json')) continue;
          const abs = new URL(target, new URL(rel, treeUrl));
          if (abs.origin !== treeUrl.origin || !abs.pathname.startsWith(treeUrl.pathname)) continue;
          const child = decodeURIComponent(abs.pathname.slice(treeUrl.pathname.length));
          if (child.split('/').some((p) => SKIP_DIRS.has(p) || p === '..' || p === '')) continue;
          if (seen.has(child)) continue;
          if (seen.size >= MAX_FILES) throw new Error(`${treeUrl.href}: more than ${MAX_FILES} files`);
          seen.add(child);
          queue.push(child);
        }
      }
      return `${treeUrl.href}`;
    },
  };
}

/** Every string value in a document (the index and manifest hold schema paths as plain strings too). */
function allStrings(node, out = []) {
  if (typeof node === 'string') out.push(node);
  else if (Array.isArray(node)) for (const v of node) allStrings(v, out);
  else if (node && typeof node === 'object') for (const v of Object.values(node)) allStrings(v, out);
  return out;
}

function openSource(from) {
  if (/^https?:\/\//i.test(from)) return siteSource(from);
  const dir = resolve(from);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) usage(`--from ${from}: no such directory`);
  return isBareGit(dir) ? bareGitSource(dir) : checkoutSource(dir);
}

// ---------------------------------------------------------------------------------------------------------

function readSources(out) {
  try {
    return JSON.parse(readFileSync(join(out, 'SOURCES.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The trees SOURCES.json lists, each present with its recorded fingerprint; throws with what is wrong. */
export function verifyShipped(out) {
  const sources = readSources(out);
  if (!sources || typeof sources.trees !== 'object' || !Object.keys(sources.trees).length)
    throw new Error(`${out}/SOURCES.json is missing or lists no tree`);
  const problems = [];
  for (const [version, t] of Object.entries(sources.trees)) {
    const dir = join(out, version);
    if (!existsSync(join(dir, 'index.json'))) {
      problems.push(`${version}: the tree is missing`);
      continue;
    }
    const fp = fingerprint(dir);
    if (fp.sha256 !== t.sha256 || fp.files !== t.files) problems.push(`${version}: fingerprint differs from SOURCES.json`);
  }
  const minors = new Set(Object.keys(sources.trees).map((v) => v.split('.').slice(0, 2).join('.')));
  for (const m of SUPPORTED_MINORS) if (!minors.has(m)) problems.push(`no ${m}.x tree`);
  if (problems.length) throw new Error(problems.join('; '));
  return Object.keys(sources.trees);
}

/** `dir` relative to the working directory when it is below it, else whole. */
function shownPath(dir) {
  const rel = relative(process.cwd(), dir);
  return rel && !rel.startsWith('..') ? rel : dir;
}

/** Whether `out` holds no schema tree and no SOURCES.json: nothing shipped (a git clone), not a broken set. */
function nothingShipped(out) {
  if (existsSync(join(out, 'SOURCES.json'))) return false;
  const entries = existsSync(out) ? readdirSync(out, { withFileTypes: true }) : [];
  return !entries.some((e) => e.isDirectory() && /^\d+\.\d+\.\d+/.test(e.name));
}

/** The AdCP versions of the trees bundled in the installed @adcp/sdk, with its version (best effort). */
function sdkTrees() {
  try {
    const pkgJson = createRequire(import.meta.url).resolve('@adcp/sdk/package.json');
    const sdk = JSON.parse(readFileSync(pkgJson, 'utf8')).version;
    const data = join(dirname(pkgJson), 'dist', 'lib', 'schemas-data');
    const versions = readdirSync(data, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(data, e.name, 'index.json')))
      .map((e) => JSON.parse(readFileSync(join(data, e.name, 'index.json'), 'utf8')).adcp_version)
      .filter((v) => typeof v === 'string')
      .sort(cmpVersion)
      .reverse();
    return `@adcp/sdk ${sdk}${versions.length ? ` (AdCP ${versions.join(', ')})` : ''}`;
  } catch {
    return '@adcp/sdk';
  }
}

async function refresh(opts) {
  const source = openSource(opts.from);
  const versions = opts.latest || !opts.versions ? await source.latest() : opts.versions;
  if (!versions.length) throw new Error('no version to fetch');
  for (const v of versions) if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(v)) usage(`--versions: ${v} is not a full version`);
  mkdirSync(opts.out, { recursive: true });
  const previous = readSources(opts.out);
  const trees = { ...(previous && typeof previous.trees === 'object' ? previous.trees : {}) };
  const fetchedAt = new Date().toISOString();
  process.stdout.write(`refresh-schemas: from ${source.describe} into ${opts.out}: ${versions.join(', ')}\n`);
  for (const version of versions) {
    const staging = join(opts.out, `.staging-${version}-${process.pid}`);
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    try {
      const from = await source.fetchTree(version, staging);
      const index = JSON.parse(readFileSync(join(staging, 'index.json'), 'utf8'));
      if (index.adcp_version !== version)
        throw new Error(`${version}: the tree's index.json says adcp_version ${JSON.stringify(index.adcp_version)}`);
      const fp = fingerprint(staging);
      rmSync(join(opts.out, version), { recursive: true, force: true });
      renameSync(staging, join(opts.out, version));
      trees[version] = { from, fetchedAt, files: fp.files, sha256: fp.sha256 };
      process.stdout.write(`refresh-schemas: AdCP ${version}: ${fp.files} files, sha256 ${fp.sha256.slice(0, 16)}… from ${from}\n`);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const document = {
    description:
      'The official AdCP JSON Schemas shipped with adcp-conformance, one tree per release (scripts/refresh-schemas.mjs). Apache-2.0, copyright the AdCP authors; see LICENSE-NOTICE.md.',
    license: 'Apache-2.0',
    source: { ...source.record, fetchedAt },
    trees: Object.fromEntries(Object.entries(trees).sort(([a], [b]) => cmpVersion(b, a))),
  };
  writeFileSync(join(opts.out, 'SOURCES.json'), `${JSON.stringify(document, null, 2)}\n`);
  const notice = join(ROOT, 'adcp-schemas', 'LICENSE-NOTICE.md');
  if (resolve(opts.out) !== join(ROOT, 'adcp-schemas') && existsSync(notice))
    writeFileSync(join(opts.out, 'LICENSE-NOTICE.md'), readFileSync(notice));
  process.stdout.write(`refresh-schemas: wrote ${relative(process.cwd(), join(opts.out, 'SOURCES.json')) || 'SOURCES.json'}\n`);
}

const opts = parseArgs(process.argv.slice(2));
try {
  if (opts.prepack || opts.publish) {
    const from = process.env.ADCP_SCHEMAS_FROM;
    // `npm publish` runs prepublishOnly (--publish) and then prepack: the trees are refreshed once.
    const refreshed = opts.prepack && process.env.npm_command === 'publish';
    if (from && !refreshed) await refresh({ ...opts, from, latest: true });
    if (opts.prepack && !opts.publish && nothingShipped(opts.out)) {
      process.stdout.write(
        `refresh-schemas: packing without the official AdCP schema trees (${shownPath(opts.out)} holds none): the package will judge sellers with the schemas bundled in ${sdkTrees()} only\n`,
      );
    } else {
      const shipped = verifyShipped(opts.out);
      process.stdout.write(`refresh-schemas: the package carries AdCP ${shipped.join(', ')} (${opts.out})\n`);
    }
  } else {
    if (!opts.from) usage('--from is required');
    await refresh(opts);
  }
} catch (e) {
  process.stderr.write(
    `refresh-schemas: ${e instanceof Error ? e.message : String(e)}\n` +
      (opts.prepack || opts.publish
        ? `refresh-schemas: refusing to ${opts.publish ? 'publish' : 'pack'} without the official AdCP schemas: run \`npm run schemas:refresh -- --from <source> --latest\` or set ADCP_SCHEMAS_FROM\n`
        : ''),
  );
  process.exit(1);
}
