// A copy of the project built as `npm ci` builds it (scripts/build.mjs), for the build tests.
import { execFile } from 'node:child_process';
import { cp, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../run/cli.helpers.ts';

/** What the build reads: the sources and the files the compiled project needs beside them. */
const COPIED = ['harness', 'sellers', 'suites', 'config', 'bin', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node ARGS` in `cwd`, as CI would run it (no colour). */
export function node(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      args,
      { cwd, env: { ...process.env, CI: '1', NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    ),
  );
}

/** Copy the project into `project` (node_modules linked) and run its build there. */
export async function buildCopy(project: string): Promise<Result> {
  for (const entry of COPIED) await cp(join(ROOT, entry), join(project, entry), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  return node(project, ['scripts/build.mjs']);
}
