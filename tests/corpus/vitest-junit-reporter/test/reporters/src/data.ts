// Vitest's test/reporters/src/data.ts (MIT, vitest-dev/vitest) at 199776767a10, cut to one file with a
// suite of two tests: the reporters only need something to write.
import type { Task } from '../../../packages/vitest/src/node/reporters/junit.js';

export const files: Task[] = [
  {
    name: 'test/core/test/basic.test.ts',
    type: 'suite',
    mode: 'run',
    result: { state: 'pass', duration: 145.99284195899963 },
    tasks: [
      {
        name: 'suite',
        type: 'suite',
        mode: 'run',
        result: { state: 'pass', duration: 1.90183687210083 },
        tasks: [
          { name: 'Math.sqrt()', type: 'test', mode: 'run', result: { state: 'pass', duration: 1.4422860145568848 } },
          { name: 'JSON', type: 'test', mode: 'skip' },
        ],
      },
    ],
  },
];
