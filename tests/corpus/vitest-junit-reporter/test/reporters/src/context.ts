// Vitest's test/reporters/src/context.ts (MIT, vitest-dev/vitest) at 199776767a10: a stand-in for the
// node-side Vitest a reporter is given, its logger writing into `output`.
import type { Vitest } from '../../../packages/vitest/src/node/reporters/junit.js';

interface Context {
  vitest: Vitest;
  output: string;
}

export function getContext(): Context {
  let output = '';

  const context: Vitest = {
    config: { root: '/' },
    logger: { log: (text: string) => (output += `${text}\n`) },
  };

  return {
    vitest: context,
    get output() {
      return output;
    },
  };
}
