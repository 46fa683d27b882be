// A test's cleanup removes a folder while a child the test started still holds it: its working
// directory, or a file it keeps open there (tests/fixtures/child-held). On Windows that removal fails
// (EBUSY, WinError 32); the test process's probe reads the live child's /proc at the call, and the
// child's holding is blocked-cleanup by deleted-while-held, the delete named. A child that exited
// before the removal is no finding.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { headline, headlineText } from '../../core/report/headline.js';
import { CORPUS, runCase } from '../corpus/corpus.js';
import { lineOf } from '../probes/stack-support.js';

const CASE = join('..', 'fixtures', 'child-held');
const sourceOf = (file: string) => readFileSync(join(CORPUS, CASE, file), 'utf8');

async function runFile(file: string): Promise<{ record: RunRecord; watched: string }> {
  let watched = '';
  const [run] = await runCase(
    CASE,
    () => [process.execPath, '--test', file],
    1,
    (dir) => {
      watched = dir;
      return { WORK: dir };
    },
  );
  expect(run!.exitCode, run!.tail).toBe(0);
  return { record: run!.record, watched };
}

/** Each finding as a line: its path, kind, verdict, and the delete that met it (line, and whether a parent's). */
function findings({ record, watched }: { record: RunRecord; watched: string }): string[] {
  return record.holders
    .filter((h) => h.attribution.verdict !== 'in-run')
    .map((h) => {
      const a = h.attribution;
      const call = a.deletedBy;
      const frame = call?.frames.find((f) => f.user);
      // The ancestry runs holder first: its parent is the test process that removed the folder.
      const parent = a.ancestry[1]?.pid;
      const by = call ? `${call.api} at line ${frame?.line} by ${call.pid === parent ? 'its parent' : `PID ${call.pid}`}` : 'no delete';
      return `${relative(watched, h.path)} | ${h.kind} | ${a.verdict} by ${a.verdictBy} | ${by}`;
    });
}

describe("node:test: a cleanup that removes a folder a live child holds (the child's cwd, or its open file)", () => {
  it("names the child's working directory, removed while the child ignored the SIGTERM before it", async () => {
    const run = await runFile('cwd.test.mjs');
    const removal = lineOf(sourceOf('cwd.test.mjs'), 'the removal under the child');
    expect(findings(run)).toEqual([`child-cwd | cwd | blocked-cleanup by deleted-while-held | fs.rmSync at line ${removal} by its parent`]);
    expect(headlineText(headline(run.record))).toMatch(
      new RegExp(
        `^No teardown failed here, but fs\\.rmSync at cwd\\.test\\.mjs:${removal} in PID \\d+ deleted child-cwd while its child node PID \\d+ still held it`,
      ),
    );
  });

  it('names the file the child keeps open there, removed before the child was stopped', async () => {
    const run = await runFile('fd.test.mjs');
    const removal = lineOf(sourceOf('fd.test.mjs'), 'the removal under the child');
    expect(findings(run)).toEqual([`child-fd/child.log | file | blocked-cleanup by deleted-while-held | fs.rmSync at line ${removal} by its parent`]);
  });

  it('finds nothing when the cleanup waits for the child to exit first', async () => {
    const run = await runFile('exited.test.mjs');
    expect(findings(run)).toEqual([]);
    expect(run.record.holders.filter((h) => h.attribution.deletedBy)).toEqual([]);
  });
});
