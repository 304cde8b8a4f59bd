// The project lints itself in `npm test`: typescript-eslint's recommended rules, no import cycles,
// size limits for source files and functions, and the walls between the parts (DESIGN §4):
// the runtime loads no tooling and none of the other parts; knowledge is plain data; analysis
// never reaches into rules or codemods; rules never into codemods; nothing imports tests or
// examples; scripts import no tests.
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

const TOOLING = [
  'eslint',
  'eslint/*',
  '@eslint/*',
  '@eslint-community/*',
  '@typescript-eslint/*',
  'typescript-eslint',
  'typescript',
  'espree',
  'picomatch',
  'tinyglobby',
  'commander',
  'diff',
  'ignore',
  'picocolors',
  'tsx',
  'tsx/*',
  'vitest',
  'vitest/*',
];
const TESTS_AND_EXAMPLES = ['**/test/**', '**/examples/**'];

/** `no-restricted-imports` for one folder: relative groups and package names it must not import. */
function wall(message, groups) {
  return {
    'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }],
  };
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'examples/**',
      'test/**/fixtures/**',
      'test/rules/projects/**',
      'test/oxlint/cases/**',
      'test/codemods/unseen/**',
      '.tmp/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    plugins: { 'import-x': importX },
    // `./x.js` in a TypeScript source names `./x.ts`: the TypeScript resolver follows it, so cycles are seen.
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.mts', '.cts'] },
      'import-x/extensions': ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      ...wall('Nothing imports tests or examples.', TESTS_AND_EXAMPLES),
    },
  },
  {
    // CommonJS shims load their module with `require`.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts', 'analysis/**/*.ts', 'rules/**/*.ts', 'codemods/**/*.ts', 'scripts/**/*.{ts,mjs,cjs}'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 120 }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/knowledge/**'],
    rules: wall('The runtime imports no tooling, and nothing from analysis, rules, codemods or src/knowledge.', [
      ...TOOLING,
      '**/analysis/**',
      '**/rules/**',
      '**/codemods/**',
      '**/knowledge/**',
      ...TESTS_AND_EXAMPLES,
    ]),
  },
  {
    files: ['src/knowledge/**/*.ts'],
    rules: wall('src/knowledge is plain data and pure functions: no runtime, no tooling, no other part.', [
      ...TOOLING,
      '../*',
      '!../knowledge/**',
      '**/analysis/**',
      '**/rules/**',
      '**/codemods/**',
      ...TESTS_AND_EXAMPLES,
    ]),
  },
  {
    files: ['analysis/**/*.ts'],
    rules: wall('analysis/ imports src/knowledge and parser utilities, never rules/ or codemods/.', [
      '**/rules/**',
      '**/codemods/**',
      '**/src/*',
      '!**/src/knowledge',
      ...TESTS_AND_EXAMPLES,
    ]),
  },
  {
    files: ['rules/**/*.ts'],
    rules: wall('rules/ imports analysis/, src/knowledge and ESLint utilities, never codemods/ or the runtime.', [
      '**/codemods/**',
      '**/src/*',
      '!**/src/knowledge',
      ...TESTS_AND_EXAMPLES,
    ]),
  },
  {
    files: ['codemods/**/*.ts'],
    rules: wall('codemods/ imports the rules, analysis/ and src/knowledge, never the runtime.', [
      '**/src/*',
      '!**/src/knowledge',
      ...TESTS_AND_EXAMPLES,
    ]),
  },
  {
    files: ['scripts/**/*.{ts,mjs,cjs}'],
    rules: wall('scripts/ import no tests.', TESTS_AND_EXAMPLES),
  },
);
