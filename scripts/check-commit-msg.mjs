#!/usr/bin/env node
// Checks a commit message as CONTRIBUTING.md asks: a subject of at most 72 characters, a blank line, and a
// body that says why (and gives the numbers). Git's commit-msg hook runs it (.githooks/commit-msg, after
// `git config core.hooksPath .githooks`); so can anyone: `node scripts/check-commit-msg.mjs <file>`.
// Exit 0 when it passes; 1 with one line per problem on stderr; 2 when the file cannot be read.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const MAX_SUBJECT = 72;

/** What is wrong with `message` (git's text: `#` lines are comments, a scissors line ends it); [] when nothing. */
export function commitMessageProblems(message) {
  const scissors = message.indexOf('# ------------------------ >8 ------------------------');
  const lines = (scissors >= 0 ? message.slice(0, scissors) : message)
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const [subject = '', separator, ...body] = lines;
  // Git writes these itself; their subjects name the commit they act on.
  if (/^(Merge|Revert|fixup!|squash!|amend!) /.test(subject)) return [];
  const problems = [];
  if (subject === '') return ['the message is empty'];
  if ([...subject].length > MAX_SUBJECT) problems.push(`the subject is ${[...subject].length} characters; at most ${MAX_SUBJECT}: put the rest in the body`);
  if (/\.$/.test(subject)) problems.push('the subject ends with a full stop');
  if (separator !== undefined && separator !== '') problems.push('a blank line must separate the subject from the body');
  else if (body.every((line) => line === '')) problems.push('there is no body: say why, and give the numbers');
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  let message;
  try {
    message = readFileSync(file ?? '', 'utf8');
  } catch (error) {
    process.stderr.write(`check-commit-msg: cannot read ${file ?? '(no file given)'}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  const problems = commitMessageProblems(message);
  for (const problem of problems) process.stderr.write(`commit message: ${problem}\n`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
