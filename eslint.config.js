// ESLint: the recommended rules plus typescript-eslint's type-aware ones, so that a promise
// nobody awaits or a value of the wrong type is a CI failure rather than a reviewer's catch.
// Formatting is Prettier's job (.prettierrc.json), not ESLint's.
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import tseslint from 'typescript-eslint'
import globals from 'globals'

export default defineConfig(
  globalIgnores([
    'generated/',
    'clients/typescript/src/generated/',
    'clients/typescript/dist/',
    'dist/',
    'models/',
    'drizzle/',
    'node_modules/',
    '.tap/',
    'coverage/',
    'data/',
    '.bench/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `_`-prefixed parameters and variables are unused on purpose (a handler's unused request).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // An abort signal's reason, or an error caught as `unknown`, is passed on as it is.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // Fastify plugins, hooks and handlers are async by contract, whether or not they await.
      '@typescript-eslint/require-await': 'off',
      // wink-nlp's `its.*` accessors and the repositories' operations are plain functions that
      // their types declare as methods; nothing here relies on `this` through a detached method.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['test/**', 'clients/typescript/test/**'],
    rules: {
      // Tests read responses as `any` (inject's `res.json()`, fetch's `json()`) and assert their
      // shape at run time: that is what a test is for.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // tap awaits the subtests it is given; `t.test(...)` is not awaited by design.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: '@tapjs/test', name: ['test', 'todo', 'skip', 'only'] }] },
      ],
    },
  },
  {
    // Plain JavaScript (the start script, the bundler, fixtures, the dashboard's browser script)
    // is not part of the TypeScript project: the syntax rules only.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['src/dashboard/assets/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
)
