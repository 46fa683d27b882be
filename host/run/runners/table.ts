// Every test runner holdwatch knows, one entry each: how its command is recognised, how its command
// and environment are rewritten, who reports its tests, which parser reads its output, and which
// tracker of the Node preload follows its tests in-process. The first entry that recognises a command
// is its runner; every entry's environment is added to every run (runners hide behind npm and make).
import type { RunnerKind } from '../../../core/runners/sniffing-parser.js';
import { nameOf, type CommandLine } from './command-line.js';
import { batsWithFormatter } from './bats.js';
import { goExitStopEnvironment, isGoTestBinary, throughExitStop } from './go-exec.js';
import { isNodeTest, nodeTestWithReporter } from './node-test.js';
import { pytestPlugin, pythonRunnersOnPath, runsPythonModule } from './python.js';
import type { Runner } from './runner.js';

/** The program, or the script a launcher (`node`, `npx`) runs as its first or second argument. */
const runsScript =
  (...names: string[]) =>
  ({ name, args }: CommandLine) =>
    [name, ...args.slice(0, 2).map(nameOf)].some((n) => names.includes(n));

const PRELOAD = { by: 'probe', probe: 'the Node preload' } as const;
/** `-json`, `-v`, or neither. */
const GO: readonly RunnerKind[] = ['go-test-json', 'go-test-v', 'generic'];
/** Node's `spec` reporter, its `tap` on a pipe up to Node 22, or one the user chose. */
const NODE: readonly RunnerKind[] = ['generic', 'tap'];

export const RUNNERS: readonly Runner[] = [
  {
    name: 'pytest',
    recognise: runsPythonModule('pytest', ['pytest', 'py.test']),
    environment: (c) => ({ ...pythonRunnersOnPath(c), ...pytestPlugin(c) }),
    tests: { by: 'probe', probe: 'the pytest plugin' },
    output: ['generic'],
  },
  {
    name: 'unittest',
    recognise: runsPythonModule('unittest', []),
    environment: pythonRunnersOnPath,
    tests: { by: 'probe', probe: 'the unittest hook' },
    output: ['generic'],
  },
  { name: 'go test', recognise: ({ name }) => name === 'go', environment: goExitStopEnvironment, tests: { by: 'output' }, output: GO },
  { name: 'Go test binary', recognise: isGoTestBinary, rewrite: throughExitStop, tests: { by: 'output' }, output: GO },
  { name: 'bats', recognise: ({ name }) => name === 'bats', rewrite: batsWithFormatter, tests: { by: 'probe', probe: 'the bats formatter' }, output: ['tap'] },
  {
    name: 'node:test',
    recognise: isNodeTest,
    rewrite: nodeTestWithReporter,
    tests: { by: 'probe', probe: 'the node:test reporter' },
    output: NODE,
    nodeTracker: { tracker: 'node-test', variable: 'NODE_TEST_CONTEXT', runnerFlag: '--test' },
  },
  {
    name: 'mocha',
    recognise: runsScript('mocha', '_mocha'),
    tests: PRELOAD,
    output: NODE,
    nodeTracker: { tracker: 'mocha', main: '(^|/)mocha/|(^|/)_?mocha(\\.js)?$' },
  },
  {
    name: 'jest',
    recognise: runsScript('jest'),
    tests: PRELOAD,
    output: ['generic'],
    nodeTracker: { tracker: 'jest', main: '(^|/)(jest|jest-cli|jest-worker)(/|$)' },
  },
  {
    name: 'vitest',
    recognise: runsScript('vitest'),
    tests: PRELOAD,
    output: ['generic'],
    // The forks pool's workers by their script; the threads pool's in the vitest process itself, run
    // as the package's bin (`.bin/vitest`, or `vitest/vitest.mjs` where a shim runs it by its path).
    nodeTracker: { tracker: 'vitest', main: '(^|/)vitest/(.+/)?workers(/|$)', threadsOf: '(^|/)(\\.bin/vitest|vitest/vitest\\.mjs)$' },
  },
  { name: 'TAP', tests: { by: 'output' }, output: ['tap'] },
  { name: 'plain lines', recognise: () => true, tests: { by: 'output' }, output: ['generic'] },
];
