// The CLI bundle's `import.meta.url` rewrite (scripts/bundle-cli.mjs): each bundled module keeps the URL of
// its own file in dist/, so what it reads beside itself is found as before; text that only looks like the
// expression (in a string, a template or a comment) is left alone. The bundle as a whole is proven by
// test/build/compiled.test.ts (a run loads the bundle's chunks and its worker, and works).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, test } from 'vitest';
// @ts-expect-error -- a build script (plain JavaScript, no declarations)
import { moduleUrlPlugin } from '../../scripts/bundle-cli.mjs';

interface Plugin {
  transform(code: string, id: string): { code: string } | null;
  renderChunk(code: string, chunk: { fileName: string }): { code: string };
}

const root = '/project/dist';
const out = join(root, 'cli-bundle');
const plugin = moduleUrlPlugin(root, out, parseAst) as Plugin;

/** The module's code as it runs from `chunk`, with `import.meta.url` being the chunk's own URL. */
function bundled(code: string, id: string, chunk: string): string {
  const transformed = plugin.transform(code, id);
  return plugin.renderChunk(transformed?.code ?? code, { fileName: chunk }).code;
}

/** Evaluate the rewritten expression as the chunk would, with the chunk's URL for `import.meta.url`. */
function urlFrom(code: string, chunk: string): string {
  const chunkUrl = pathToFileURL(join(out, chunk)).href;
  return new Function('chunkUrl', `return ${code.replaceAll('import.meta.url', 'chunkUrl')};`)(chunkUrl) as string;
}

describe('the CLI bundle keeps each module its own import.meta.url', () => {
  test('an expression becomes the module file URL, relative to its chunk, whatever folder the chunk is in', () => {
    const id = join(root, 'harness', 'config', 'validate.js');
    for (const chunk of ['chunks/validate-abc.js', 'cli.js']) {
      const code = bundled('export const here = import.meta.url;', id, chunk);
      expect(code).not.toContain('__adcpConformanceModuleUrl');
      const expression = code.slice(code.indexOf('=') + 1, code.lastIndexOf(';')).trim();
      expect(urlFrom(expression, chunk)).toBe(pathToFileURL(id).href);
    }
  });

  test('every expression of a module is rewritten; strings, templates and comments that spell it are not', () => {
    const id = join(root, 'harness', 'schemas', 'precompile.js');
    const source = [
      'const require = createRequire(import.meta.url); // import.meta.url',
      "lines.push('const require = createRequire(import.meta.url);');",
      'const t = `${import.meta.url} and import.meta.url`;',
      '/* import.meta.url */ export const u = new URL("./x.json", import.meta.url);',
    ].join('\n');
    const code = bundled(source, id, 'chunks/precompile-1.js');
    expect(code.match(/new URL\("\.\.\/\.\.\/harness\/schemas\/precompile\.js", import\.meta\.url\)\.href/g)).toHaveLength(3);
    expect(code).toContain("lines.push('const require = createRequire(import.meta.url);');");
    expect(code).toContain(' and import.meta.url`');
    expect(code).toContain('// import.meta.url');
    expect(code).toContain('/* import.meta.url */');
  });

  test('modules outside the compiled tree (dependencies) and modules without the expression are left as they are', () => {
    expect(plugin.transform('export const u = import.meta.url;', '/project/node_modules/x/index.js')).toBeNull();
    expect(plugin.transform('export const s = "import.meta.url";', join(root, 'harness', 'a.js'))).toBeNull();
    expect(plugin.transform('export const a = 1;', join(root, 'harness', 'a.js'))).toBeNull();
  });
});
