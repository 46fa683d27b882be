// The directories the UI watched, most recent first, kept in holdwatch's data dir (never a watched one).
import { readFileSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { makePrivateDir, writePrivateFile } from './private-files.js';

const KEEP = 10;

export class RecentDirs {
  constructor(private readonly file: string) {}

  list(): string[] {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      return Array.isArray(parsed) ? parsed.filter((d): d is string => typeof d === 'string').slice(0, KEEP) : [];
    } catch {
      return []; // first use, or a torn file: start over rather than fail the UI
    }
  }

  remember(dir: string): void {
    const dirs = [dir, ...this.list().filter((d) => d !== dir)].slice(0, KEEP);
    makePrivateDir(dirname(this.file));
    // Write then rename: a crash mid-write leaves the old list, not half a file.
    writePrivateFile(this.file + '.tmp', JSON.stringify(dirs));
    renameSync(this.file + '.tmp', this.file);
  }
}
