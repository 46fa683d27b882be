// The Python probes' own bytecode under `holdwatch run` with PYTHONDONTWRITEBYTECODE set: the first
// process compiles them into holdwatch's data dir, the next ones load them from there, and nothing is
// written beside the probes' sources.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const PROBES = join(import.meta.dirname, '../../probes');
const dataDir = mkdtempSync(join(tmpdir(), 'hw-pycache-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function runPython(): string {
  const probeLog = join(dataDir, 'runs', 'r1.probes');
  mkdirSync(probeLog, { recursive: true });
  const env = {
    ...process.env,
    PYTHONPATH: [join(PROBES, 'python'), join(PROBES, 'python-runners')].join(':'),
    PYTHONDONTWRITEBYTECODE: '1',
    HOLDWATCH_RUN: 'r1',
    HOLDWATCH_PROBE_LOG: probeLog,
    HOLDWATCH_EVENTS: join(dataDir, 'runs', 'r1.events.jsonl'),
  };
  // -v names each module's source of code: "code object from '<file>.pyc'" when it came from bytecode.
  const r = spawnSync(PYTHON, ['-v', '-c', 'import unittest, holdwatch_channel'], { env, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return r.stderr;
}

function pycacheDirsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('__pycache__'));
}

describe('the Python probes bytecode', () => {
  it('is compiled once into the data dir and loaded from there, never beside the sources', () => {
    const first = runPython();
    const cache = join(dataDir, 'python-cache', PROBES);
    expect(first).not.toMatch(/code object from '.*python-cache/);
    for (const name of ['python/_holdwatch_stacks/recorder', 'python-runners/holdwatch_unittest', 'python-runners/holdwatch_channel']) {
      const [folder, base] = [join(cache, name, '..'), name.split('/').pop()];
      expect(readdirSync(folder).some((file) => file.startsWith(`${base}.cpython-`) && file.endsWith('.pyc'))).toBe(true);
    }
    const second = runPython();
    for (const module of ['recorder', 'holdwatch_unittest', 'holdwatch_channel']) {
      expect(second).toMatch(new RegExp(`code object from '${cache}/.*${module}\\.cpython-\\d+\\.pyc'`));
    }
    expect([...pycacheDirsUnder(join(PROBES, 'python')), ...pycacheDirsUnder(join(PROBES, 'python-runners'))]).toEqual([]);
  });
});
