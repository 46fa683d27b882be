// The scale rows of issue 35: what each row builds under the bench's scratch dir, the command it runs,
// and the targets the issue sets (a row without one prints its ratio only). `scale` shrinks every row
// alike for a quick look (BENCH_SCALE=0.05).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';

export interface RowSetup {
  /** What `holdwatch run --watch` watches. */
  watched: string;
  argv: string[];
  cwd: string;
  env?: Record<string, string>;
  /** Bytes the command writes to stdout, when the row checks they all arrive. */
  stdoutBytes?: number;
}

/** A record's verdicts, read from `run --json`: what a row may check beyond time and memory. */
export interface RecordFacts {
  tests: number;
  verdicts: Map<string, number>;
}

export interface Targets {
  maxRatio?: number;
  maxHoldwatchMb?: number;
  /** A claim about the record: null when it holds, else what is wrong. */
  record?: (facts: RecordFacts) => string | null;
}

export interface ScaleRow {
  key: string;
  /** The row's name at full size, and at the size it runs. */
  label(scale: number): string;
  build(scratch: string, scale: number): RowSetup;
  targets: Targets;
}

const scaled = (full: number, scale: number) => Math.max(1, Math.round(full * scale));

const PYTEST_TESTS = 50_000;
const TREE_FILES = 200_000;
const FORKS = 2_000;
const OUTPUT_MB = 500;

const pytest = (file: string): string[] => [PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', file];

export const SCALE_ROWS: ScaleRow[] = [
  {
    key: 'pytest',
    label: (s) => `pytest, ${scaled(PYTEST_TESTS, s).toLocaleString('en')} tests`,
    build(scratch, scale) {
      const n = scaled(PYTEST_TESTS, scale);
      writeFileSync(join(scratch, 'test_many.py'), `import pytest\n\n@pytest.mark.parametrize("i", range(${n}))\ndef test_many(i):\n    assert i >= 0\n`);
      return { watched: emptyDir(scratch, 'watched-pytest'), argv: pytest('test_many.py'), cwd: scratch };
    },
    targets: { maxRatio: 1.3, maxHoldwatchMb: 300, record: (f) => (f.tests > 0 ? null : 'no tests in the record') },
  },
  {
    // What any run costs: the base the big dir's row is read against, its plain command costing nothing.
    key: 'tree',
    label: () => 'run -- true, empty dir',
    build: (scratch) => ({ watched: emptyDir(scratch, 'watched-empty'), argv: ['true'], cwd: scratch }),
    targets: {},
  },
  {
    key: 'tree',
    label: (s) => `run -- true, ${scaled(TREE_FILES, s).toLocaleString('en')}-file dir`,
    build(scratch, scale) {
      const watched = emptyDir(scratch, 'watched-tree');
      const files = scaled(TREE_FILES, scale);
      // 100 files a folder, 10 folders a package: the shape of a venv or a node_modules.
      for (let i = 0; i < files; i++) {
        const dir = join(watched, `pkg-${Math.floor(i / 1000)}`, `mod-${Math.floor(i / 100) % 10}`);
        if (i % 100 === 0) mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `file-${i % 100}.py`), '');
      }
      return { watched, argv: ['true'], cwd: scratch };
    },
    targets: {},
  },
  {
    key: 'forks',
    label: (s) => `pytest, one test forking ${scaled(FORKS, s).toLocaleString('en')} holders`,
    build(scratch, scale) {
      const watched = emptyDir(scratch, 'watched-forks');
      writeFileSync(join(scratch, 'test_forks.py'), forkingSuite(watched, scaled(FORKS, scale)));
      return { watched, argv: pytest('test_forks.py'), cwd: scratch };
    },
    targets: {
      // Each child holds its file past the test that forked it, and lets go before the command exits.
      record: (f) => {
        const leaked = f.verdicts.get('leaked-past-test') ?? 0;
        const others = [...f.verdicts].filter(([v]) => v !== 'leaked-past-test').map(([v, n]) => `${n} ${v}`);
        return others.length === 0 && leaked > 0 ? null : `${leaked} leaked-past-test; ${others.join(', ')}`;
      },
    },
  },
  {
    key: 'output',
    label: (s) => `${scaled(OUTPUT_MB, s)} MB of random bytes, no newline`,
    build(scratch, scale) {
      const bytes = scaled(OUTPUT_MB, scale) << 20;
      return { watched: emptyDir(scratch, 'watched-output'), argv: ['head', '-c', String(bytes), '/dev/urandom'], cwd: scratch, stdoutBytes: bytes };
    },
    targets: {},
  },
];

function emptyDir(scratch: string, name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * One test forks `n` children, each holding a file in `watched` until the last test closes the pipe
 * they wait on: every file is held past the test that forked it, and let go before pytest exits.
 */
function forkingSuite(watched: string, n: number): string {
  return `import os

W = ${JSON.stringify(watched)}
release_r, release_w = os.pipe()


def test_forks_holders():
    for i in range(${n}):
        if os.fork() == 0:
            os.close(release_w)
            f = open(os.path.join(W, "held-%d" % i), "w")
            os.read(release_r, 1)
            os._exit(0)


def test_releases_them():
    os.close(release_w)
    for _ in range(${n}):
        os.wait()
`;
}
