import { describe, expect, it } from 'vitest';
import { parseProbeLog } from './index.js';

/** An open as the Node probe writes it, with these frames ([file, line, column, function, user]). */
const openLine = (frames: unknown[][]) =>
  JSON.stringify({ v: 1, kind: 'open', pid: 10, atMs: 1, api: 'fs.openSync', path: '/w/db.sqlite', fd: 21, id: 1, frames });

describe('runtime frames are never the user’s', () => {
  it('unmarks WebAssembly, node: and V8 frames a probe marked as user code, and keeps the user’s own', () => {
    const { records } = parseProbeLog(
      openLine([
        ['node:internal/fs/sync', 90, 11, 'openSync', true],
        ['wasm://wasm/004dedba', 1, 41_230, 'sqlite3_open_v2', true],
        ['native', 0, null, null, true],
        ['/src/test/db.test.js', 12, 5, 'open', true],
        ['/src/node_modules/sql.js/dist/sql-wasm.js', 80, 3, null, false],
      ]) + '\n',
    );
    const [record] = records;
    expect(record!.kind === 'open' && record!.frames.map((f) => [f.file, f.user])).toEqual([
      ['node:internal/fs/sync', false],
      ['wasm://wasm/004dedba', false],
      ['native', false],
      ['/src/test/db.test.js', true],
      ['/src/node_modules/sql.js/dist/sql-wasm.js', false],
    ]);
  });

  it('keeps Python’s `<string>` (python -c) as the user’s, and its frozen modules as not', () => {
    const { records } = parseProbeLog(
      openLine([
        ['<frozen importlib._bootstrap>', 1, null, null, true],
        ['<string>', 3, null, '<module>', true],
      ]) + '\n',
    );
    expect(records[0]!.kind === 'open' && records[0]!.frames.map((f) => f.user)).toEqual([false, true]);
  });
});
