// `npx vitest bench --run tests/bench`: the per-line cost the supervisor pays on every output line.
import { bench, describe } from 'vitest';
import { matchTeardownFailure } from '../../core/signatures/match-line.js';
import { SAMPLES } from '../fixtures/signatures/failure-samples.js';

// Ordinary runner output: what almost every line looks like.
const ORDINARY = [
  'tests/test_density.py::TestDensity::test_repr PASSED                      [ 12%]',
  '=== RUN   TestFinder/Timestamp_Sorting',
  '    --- PASS: TestFinder/Numeric_Sorting (1.69s)',
  'ok 3 - removes the temp dir # time=12.5ms',
  '  ✔ parses the config (0.912ms)',
  '{"Time":"2024-02-06T10:00:00.1Z","Action":"output","Package":"example.com/x","Test":"TestServer","Output":"    server_test.go:42: listening on 127.0.0.1:35501\\n"}',
  '    at Object.<anonymous> (/home/runner/work/app/app/test/setup.js:23:11)',
  'Collecting File: C:\\Windows\\System32\\config\\RegBack\\SAM.LOG1',
];
const FAILURES = SAMPLES.map((s) => s.line);

describe('matchTeardownFailure', () => {
  bench('1000 ordinary lines', () => {
    for (let i = 0; i < 1000; i++) matchTeardownFailure(ORDINARY[i % ORDINARY.length]!);
  });
  bench('1000 failure lines', () => {
    for (let i = 0; i < 1000; i++) matchTeardownFailure(FAILURES[i % FAILURES.length]!);
  });
});
