// Runs a real runner with a bundled probe writing to a throwaway events file, and reads the file
// back through the same reader holdwatch uses (core/runners/probe-events.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestEvent } from '../../core/runners/events.js';
import { ProbeEventsParser } from '../../core/runners/probe-events.js';

export interface ProbeRun {
  status: number | null;
  output: string;
  events: TestEvent[];
  rejectedLines: number;
  /** The lines the probe wrote (events folded into one line count once). */
  lines: number;
}

export function runWithProbe(cmd: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; eventsPath?: (dir: string) => string }): ProbeRun {
  const dir = mkdtempSync(join(tmpdir(), 'hw-probe-'));
  try {
    const eventsFile = options.eventsPath ? options.eventsPath(dir) : join(dir, 'events.jsonl');
    const env = { ...process.env, ...options.env, HOLDWATCH_EVENTS: eventsFile };
    const r = spawnSync(cmd, args, { cwd: options.cwd, env, encoding: 'utf8', timeout: 120_000 });
    if (r.error) throw r.error;
    const parser = new ProbeEventsParser();
    let text = '';
    try {
      text = readFileSync(eventsFile, 'utf8');
    } catch {
      text = '';
    }
    const events = [...parser.push(text).events, ...parser.end().events];
    const lines = text.split('\n').filter((line) => line.trim().length > 0).length;
    return { status: r.status, output: `${r.stdout}${r.stderr}`, events, rejectedLines: parser.rejectedLines, lines };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
