import { describe, expect, it } from 'vitest';
import { commandLineParts, processLabel } from './process-label.js';

const WORKER =
  '/usr/bin/node --test-coverage-functions=0 --test-concurrency=0 --stack-trace-limit=10 --test-isolation=process --require=/x/preload.cjs test/store.test.mjs';

describe('a node:test worker', () => {
  it('is named by its test file, its internal flags folded behind the program', () => {
    expect(processLabel({ processName: 'node', commandLine: WORKER })).toBe('node test/store.test.mjs');
    const parts = commandLineParts(WORKER);
    expect(parts.folded).toHaveLength(5);
    expect(parts.rest).toEqual(['test/store.test.mjs']);
  });

  it('leaves a plain command line as it is', () => {
    expect(processLabel({ processName: 'python3', commandLine: 'python3 -m pytest --tb=short tests' })).toBe('python3');
    expect(commandLineParts('node --test test/a.test.mjs').folded).toEqual([]);
  });
});
