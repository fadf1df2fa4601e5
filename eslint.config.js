// ESLint flat config: ESLint's and typescript-eslint's recommended rules, syntax only (no type information:
// typed linting is 3-4x slower on 2 cores and would judge types with TypeScript 6, not the 7 that `tsc` uses).
// Formatting is Prettier's job (`npm run format`); `npm run lint` checks both.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['node_modules/', 'reports/', '.vitest-reports/', 'dist/', '.dist-*/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    // A disable comment that no longer suppresses anything is an error, so stale ones do not pile up.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a deliberately unused binding; `const { secret: _, ...rest } = x` drops a key.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
