// scripts/check-commit-msg.mjs, run as git's commit-msg hook runs it: a real node process on a message file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'check-commit-msg.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'hw-commit-msg-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function check(message: string): { code: number | null; stderr: string } {
  const file = join(scratch, 'COMMIT_EDITMSG');
  writeFileSync(file, message);
  const result = spawnSync(process.execPath, [SCRIPT, file], { encoding: 'utf8' });
  return { code: result.status, stderr: result.stderr };
}

it('passes a short subject with a body, ignoring the comments git adds', () => {
  const message = 'Lint: knip finds dead code\n\nWhy: 126 unused exports before, none after.\n# Please enter the commit message\n';
  expect(check(message)).toEqual({ code: 0, stderr: '' });
});

it('refuses a subject over 72 characters, saying how long it is', () => {
  const { code, stderr } = check(`${'x'.repeat(73)}\n\nThe why.\n`);
  expect(code).toBe(1);
  expect(stderr).toBe('commit message: the subject is 73 characters; at most 72: put the rest in the body\n');
});

it('refuses a message without a body, or with the body glued to the subject', () => {
  expect(check('Fix the thing\n')).toEqual({ code: 1, stderr: 'commit message: there is no body: say why, and give the numbers\n' });
  expect(check('Fix the thing\nbecause it broke\n').stderr).toBe('commit message: a blank line must separate the subject from the body\n');
});

it('lets the messages git writes itself through, and exits 2 on a file it cannot read', () => {
  expect(check("Merge branch 'main' of /work/main\n").code).toBe(0);
  expect(check('fixup! Lint: knip finds dead code\n').code).toBe(0);
  const missing = spawnSync(process.execPath, [SCRIPT, join(scratch, 'nope')], { encoding: 'utf8' });
  expect(missing.status).toBe(2);
  expect(missing.stderr).toMatch(/^check-commit-msg: cannot read .*nope: /);
});
