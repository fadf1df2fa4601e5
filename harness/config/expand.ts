// `${VAR}` in any string of the config reads the environment (`$${` is a literal `${`); a missing
// variable is a ConfigError naming it at its pointer. Returns a new tree and every substitution made.
import { ConfigError, pointerSegment } from './errors.ts';

export interface Substitution {
  pointer: string;
  variable: string;
  value: string;
}

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function expandEnv(value: unknown, env: NodeJS.ProcessEnv, file: string): { value: unknown; substitutions: Substitution[] } {
  const substitutions: Substitution[] = [];
  const visit = (v: unknown, pointer: string): unknown => {
    if (typeof v === 'string') return expandString(v, pointer);
    if (Array.isArray(v)) return v.map((item, i) => visit(item, `${pointer}/${i}`));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) {
        Object.defineProperty(out, k, {
          value: visit(item, `${pointer}/${pointerSegment(k)}`),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return v;
  };
  const expandString = (text: string, pointer: string): string =>
    text.replace(REFERENCE, (match, name: string | undefined) => {
      if (match === '$${') return '${';
      const variable = (name ?? '').trim();
      if (!VARIABLE_NAME.test(variable)) {
        throw new ConfigError(file, pointer, `'${match}' is not a valid variable reference (expected \${NAME} with letters, digits and _)`);
      }
      const found = env[variable];
      if (found === undefined) throw new ConfigError(file, pointer, `environment variable ${variable} is not set`);
      substitutions.push({ pointer, variable, value: found });
      return found;
    });
  return { value: visit(value, ''), substitutions };
}
