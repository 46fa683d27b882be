// Lint: typescript-eslint's recommended rules, plus the layer rule that keeps imports going down:
// core imports nothing of ours; native imports core; cli and electron import core and native;
// renderer imports only types from core/api; probes stand alone (they run inside test processes).
import tseslint from 'typescript-eslint';

const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((folder) => ({ group: [`**/${folder}/**`, `**/${folder}`], message })) }],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-artifacts/**', 'bench/.build/**', '**/*.js', '!eslint.config.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  layer(['core/**/*.ts'], ['native', 'cli', 'electron', 'renderer', 'probes', 'bench'], 'core imports nothing of ours: it is the bottom layer.'),
  {
    files: ['core/**/*.ts'],
    ignores: ['core/**/*.test.ts'],
    rules: {
      // Core never touches the process, stdout or the clock directly: they are injected.
      'no-restricted-globals': ['error', { name: 'process', message: 'inject it; core never touches process' }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'use the injected Clock' }],
    },
  },
  layer(['native/**/*.ts'], ['cli', 'electron', 'renderer', 'probes', 'bench'], 'native imports only core.'),
  layer(['cli/**/*.ts', 'electron/**/*.ts'], ['renderer', 'bench'], 'cli and electron import core and native only.'),
  layer(['probes/**/*.ts'], ['core', 'native', 'cli', 'electron', 'renderer', 'bench'], 'probes run inside test processes and stand alone.'),
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/native/**', '**/cli/**', '**/electron/**', '**/probes/**', '**/bench/**', 'node:*'], message: 'renderer speaks only core/api.' },
            { group: ['**/core/**', '!**/core/api', '!**/core/api.js', '!**/core/api-contract', '!**/core/api-contract.js'], message: 'renderer imports only core/api (types) and core/api-contract (its schemas).' },
          ],
        },
      ],
    },
  },
);
