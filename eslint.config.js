// ESLint flat config. `npm run lint` runs it with --max-warnings 0, and `npm test` runs lint.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';

/** Packages that draw or hold UI state: the pure core must not import them. */
const UI_PACKAGES = ['react', 'react-dom', 'react-dom/*', 'react/*', 'recharts', 'zustand', 'zustand/*', '@tanstack/*'];

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'test-results/', '.tmp/', '.gl/', '.whl/'] },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  regexp.configs['flat/recommended'],
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // Config files outside tsconfig.json's include list.
          allowDefaultProject: ['vitest.e2e.config.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    rules: {
      // `const { drop: _unused, ...rest } = o` is how the code omits a key: the rest is the point.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'regexp/no-super-linear-backtracking': 'error',
      // a group whose capture nothing reads becomes (?:...) under --fix (off by default in the plugin)
      'regexp/no-unused-capturing-group': ['error', { fixable: true }],
      // Runtime import cycles. import-x does not follow `import type` edges (they vanish at
      // compile time), so a type-only cycle is not reported.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/**/*.tsx', 'tests/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'tests/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The two hook rules, not the plugin's React Compiler diagnostics: the page is not built with
    // React Compiler, and those rules (static-components, incompatible-library, set-state-in-effect,
    // preserve-manual-memoization, …) run the compiler on every component, about a fifth of lint time.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Tests read the CLI's JSON output and stored documents back with JSON.parse and assert on their
  // fields: the value is `any` by design and the assertions are the check. Typing each parse would
  // add a type per CLI output for no bug found (these rules gave ~150 findings in tests, none a bug).
  {
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  // Plain JavaScript (generators, this config): no types to check, so the type-aware rules would
  // only report `any` from JSON.parse.
  {
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  // Boundaries, checked on resolved paths: core is pure estimation; state may use core; ui and cli
  // sit on top. No import cycles anywhere (import-x/no-cycle above).
  {
    files: ['src/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/core', from: ['./src/state', './src/ui', './src/cli', './src/validation'], message: 'src/core is pure: it imports nothing from state, ui, cli or validation.' },
            { target: './src/state', from: ['./src/ui', './src/cli'], message: 'src/state does not import ui or cli.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/**'],
    // Type-checked with the core's own compiler options (noUncheckedIndexedAccess, no DOM), so the
    // type-aware rules see what `tsc -p tsconfig.core.json` sees: an index read may be undefined.
    languageOptions: { parserOptions: { projectService: false, project: './tsconfig.core.json' } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: UI_PACKAGES, message: 'src/core is pure: no UI library.' },
            { group: ['node:*'], message: 'src/core runs in the browser: no Node modules.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
);
