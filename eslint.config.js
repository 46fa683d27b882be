// Lint: typescript-eslint's recommended rules, plus the layer rule that keeps imports going down.
// Each layer names what it MAY import (VS Code's code-import-patterns); everything else of ours is
// refused, so a new upward edge fails lint instead of waiting for a reviewer:
//   contract <- nothing; core <- contract; native <- core, contract; host <- native, core, contract;
//   cli <- host (its façade, host/holdwatch.ts, composes what native does), core, contract;
//   electron and the library entry (index.ts) <- host and below, never each other; renderer <- contract only;
//   probes <- nothing (they run inside test processes).
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const LAYERS = ['contract', 'core', 'native', 'host', 'cli', 'electron', 'renderer', 'probes', 'bench', 'tests'];

/**
 * `files` may import only `allowed` (and themselves); the rest of LAYERS is refused with `message`.
 * A co-located test obeys its layer too, and may also use tests/ (fixtures, spawn helpers).
 */
const layer = (files, allowed, message, extra = []) => {
  const self = files[0].split('/')[0];
  const rule = (forbidden) => ['error', { patterns: [...forbidden.map((folder) => ({ group: [`**/${folder}/**`, `**/${folder}`], message })), ...extra] }];
  const forbidden = LAYERS.filter((l) => l !== self && !allowed.includes(l));
  return [
    { files, ignores: ['**/*.test.ts'], rules: { 'no-restricted-imports': rule(forbidden) } },
    { files: files.map((f) => f.replace(/\*\.tsx?$/, '*.test.ts')), rules: { 'no-restricted-imports': rule(forbidden.filter((l) => l !== 'tests')) } },
  ];
};

/** What ships: the layers' sources and the probes (bench/, tests/ and scripts/ are held to no size). */
const PRODUCT = ['{contract,core,native,host,cli,electron}/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx', 'probes/**/*.{cjs,mjs}', 'index.ts'];

/** Properties of `process` a layer may not touch: it is given what it needs instead. */
const banned = (object, properties, message) => properties.map((property) => ({ object, property, message }));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-artifacts/**', 'bench/.build/**', '**/*.js', '!eslint.config.js'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Typed rules read the programs the type-check builds: Node side and tests, the renderer, electron.
    languageOptions: {
      parserOptions: { project: ['./tsconfig.test.json', './tsconfig.web.json', './tsconfig.electron.json'], tsconfigRootDir: import.meta.dirname },
    },
  },
  { files: ['renderer/**/*.tsx', 'renderer/**/*.ts'], ...reactHooks.configs.flat.recommended },
  {
    files: ['renderer/**/*.tsx', 'renderer/**/*.ts'],
    // A notice for the React Compiler, which this app does not use: @tanstack/react-virtual's functions are
    // not memoizable, and the virtualizer re-renders its rows itself.
    rules: { 'react-hooks/incompatible-library': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // `async` on a method of a Promise-returning contract is the point, await or not: a throw inside
      // becomes the rejection the caller handles, never a synchronous exception across the service.
      '@typescript-eslint/require-await': 'off',
      // Rethrowing what a callback or a promise handed over (unknown by type) is not inventing a non-Error.
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // Tests read JSON the CLI printed and fixtures wrote: untyped by nature, and the assertions are the check.
    files: ['**/*.test.ts', 'tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/restrict-plus-operands': 'off',
    },
  },
  // Plain JavaScript (eslint.config.js, the probes) has no types to check against.
  { files: ['**/*.mjs', '**/*.cjs', 'eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  ...layer(['contract/**/*.ts'], [], 'contract imports nothing of ours: it is what every layer shares.'),
  ...layer(['core/**/*.ts'], ['contract'], 'core imports only contract: it decides, it never touches the OS.'),
  ...layer(['native/**/*.ts'], ['core', 'contract'], 'native imports only core and contract.'),
  ...layer(['host/**/*.ts'], ['native', 'core', 'contract'], 'host imports native, core and contract: the front ends (cli, electron) sit above it.'),
  ...layer(
    ['cli/**/*.ts'],
    ['host', 'core', 'contract'],
    'cli imports host and below, never electron, and native only through host (host/holdwatch.ts composes it).',
  ),
  ...layer(['index.ts'], ['host', 'native', 'core', 'contract'], 'the library entry imports host and below, never a front end.'),
  ...layer(['electron/**/*.ts'], ['host', 'native', 'core', 'contract'], 'electron imports host and below, never cli.'),
  ...layer(['renderer/**/*.ts', 'renderer/**/*.tsx'], ['contract'], 'renderer speaks only the contract.', [
    { group: ['node:*'], message: 'renderer runs in a browser: no Node modules.' },
  ]),
  ...layer(['probes/**/*.mjs', 'probes/**/*.cjs'], [], 'probes run inside test processes and stand alone.'),
  {
    // require() in the .cjs probes (a --require preload is CommonJS by definition): the same layer rule, by the path's text.
    files: ['probes/**/*.cjs'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.name="require"] > Literal[value=/(^|\\/)(${LAYERS.filter((l) => l !== 'probes').join('|')})\\//]`,
          message: 'probes run inside test processes and stand alone.',
        },
      ],
    },
  },
  // CommonJS by necessity: test suites written as their users write them, for runners that load CommonJS
  // (jest), and the Node-version check, which must run on any old Node.
  { files: ['tests/fixtures/**/*.cjs', 'scripts/check-node.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    // Small files and functions (STYLE.md 10): a file that needs a table of contents is two files. React
    // components (.tsx) are long by their markup and are held to the file limit only.
    files: PRODUCT,
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: PRODUCT.filter((glob) => !glob.endsWith('.tsx')),
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    files: ['contract/**/*.ts', 'core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      // Core never touches the process, stdout or the clock directly: they are injected.
      'no-restricted-globals': ['error', { name: 'process', message: 'inject it; core never touches process' }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'use the injected Clock' }],
    },
  },
  {
    files: ['host/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      // The host serves two front ends: exiting, changing directory and printing are theirs to do.
      'no-restricted-properties': [
        'error',
        ...banned(
          'process',
          ['exit', 'exitCode', 'chdir', 'stdout', 'stderr'],
          'the front end (cli, electron) does this; the host takes a callback or an option',
        ),
      ],
    },
  },
);
