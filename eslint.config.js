// Type-aware lint: why each rule is here is in docs/decisions/0015-type-aware-lint.md.
// The layer rules mirror the table in docs/ARCHITECTURE.md; tests/lint/layers.test.ts proves they fire.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import importCycles from './scripts/lint/import-cycles.js'

const tests = ['**/*.test.ts', '**/*.test.tsx']

/** An import whose path passes through `folder/` (relative imports are the only kind we use). */
const through = (...folders) => `(^|/)(${folders.join('|')})(/|$)`

const layer = (message, regex, extra = {}) => ({ regex, message, ...extra })

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-results/', '.data/', '.data-*/', 'host/public/'] },
  {
    files: ['**/*.{ts,tsx,mts,js}'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    plugins: { local: importCycles },
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused code.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Promises: recommendedTypeChecked has no-floating-promises and no-misused-promises; `void x()` marks an intended fire-and-forget.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      // Unsafe casts: no-unsafe-* come from recommendedTypeChecked; a double cast through unknown hides a type error.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSAsExpression.expression[typeAnnotation.type=/^TS(Unknown|Any)Keyword$/]',
          message: 'A double cast (`as unknown as X`) hides a type error: give the value its real type, or check it (a zod schema, a type guard).',
        },
      ],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // Off: an async function without await is how fakes and stores implement an async interface, and
      // `async () => { throw }` rejects where a plain function would throw; no-floating-promises and
      // no-misused-promises catch the mistakes this rule aims at.
      '@typescript-eslint/require-await': 'off',
      // Import cycles, including type-only ones (they still tie two modules together): scripts/lint/import-cycles.js.
      'local/import-cycles': 'error',
      // The project strips control characters on purpose (headers, log lines, ADF XML): that is what these regexes are for.
      'no-control-regex': 'off',
      // A `let` that a closure reads before start-up assigns it (api/server.ts's stop handler) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  // The config itself is plain JavaScript: no types to check.
  { files: ['**/*.js'], extends: [tseslint.configs.disableTypeChecked] },
  {
    // Tests read untyped bodies (res.json(), parsed XML, fake calls) and check them with expect, which is the
    // check; typing each body would only add the casts this config forbids. Mocked methods are passed unbound to expect.
    files: [...tests, 'tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Layers (docs/ARCHITECTURE.md). Tests may import across layers to check how the layers meet.
    files: ['api/**/*.{ts,tsx}'],
    ignores: tests,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [layer('api/ never imports host/ or widgets/ (docs/ARCHITECTURE.md, Layers).', through('host', 'widgets'))],
      }],
    },
  },
  {
    files: ['widgets/**/*.{ts,tsx}'],
    ignores: tests,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          layer('widgets/ never import host/ (docs/ARCHITECTURE.md, Layers).', through('host')),
          layer('widgets/ import from api/ only the router\'s type: `import type { AppRouter } from \'…/api/trpc/router.ts\'`.', through('api'), { allowTypeImports: true }),
        ],
      }],
    },
  },
  {
    files: ['host/**/*.{ts,tsx}'],
    ignores: [...tests, 'host/server/**', 'host/entry-server.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [layer('host/ imports api/ only from the server side (host/server/, entry-server.tsx) or as types.', through('api'), { allowTypeImports: true })],
      }],
    },
  },
  {
    files: ['domain/**/*.ts'],
    ignores: tests,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          layer('domain/ imports only domain/ (docs/ARCHITECTURE.md, Layers).', through('api', 'host', 'widgets', 'scripts', 'tests')),
          layer(
            'domain/ imports no framework or Node module: only domain/, `zod/mini` and the pure CSV functions.',
            '^(?!\\.|zod/mini$|csv-parse/sync$|csv-stringify/sync$)',
          ),
        ],
      }],
    },
  },
)
