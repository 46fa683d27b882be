// The Python probe's record of a delete that met the process's own descriptor, in a real Python process:
// a file opened by C (libc's open through ctypes, as HDF5 or netCDF open theirs: no audit event, no open
// record) and removed while open, then closed before anything scans it. On Windows that os.remove fails
// (WinError 32); here the record of the call is all there is, and holdwatch's leak finder turns it
// into a holder deleted while held.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DeleteRecord, OpenRecord } from '../../contract/probe-log.js';
import { findProbeLeaks, indexProbeRecords } from '../../core/stacks/index.js';
import { lineOf, makeScratch, PYTHON, runToEnd, topUserFrame } from './stack-support.js';

const scratch = makeScratch();
afterAll(() => scratch.dispose());

const SCRIPT = `import ctypes, os, shutil, sys
watched, outside = sys.argv[1], sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
def c_open(path):
    return libc.open(path.encode(), os.O_CREAT | os.O_WRONLY, 0o644)
held = os.path.join(watched, "held.h5")
fd = c_open(held)
os.remove(held)  # the remove of a held file
os.close(fd)
free = os.path.join(watched, "free.txt")
open(free, "w").close()
os.remove(free)  # the remove of a closed file
tree = os.path.join(watched, "tree")
os.mkdir(tree)
fd = c_open(os.path.join(tree, "inner.nc"))
shutil.rmtree(tree)  # the rmtree of a dir holding one
os.close(fd)
far = os.path.join(outside, "far.txt")
fd = c_open(far)
os.remove(far)  # the remove outside the watched dir
os.close(fd)
`;

describe('python probe: a delete of a path the process holds', () => {
  it("records the call with its line and each descriptor /proc/self/fd named there, a C library's open included", () => {
    const script = scratch.write('deletes.py', SCRIPT);
    const outside = join(scratch.root, 'outside');
    runToEnd('mkdir', ['-p', outside], process.env, scratch.root);
    const ran = runToEnd(PYTHON, [script, scratch.watched, outside], scratch.probedEnv({ HOLDWATCH_WATCHED: scratch.watched }), scratch.root);
    expect(ran.status, ran.stderr).toBe(0);
    const { records, rejectedLines } = scratch.records();
    expect(rejectedLines).toBe(0);

    const deletes = records.filter((r): r is DeleteRecord => r.kind === 'delete');
    const listed = new Map(records.filter((r): r is OpenRecord => r.kind === 'open' && r.listed === true).map((r) => [r.id, r]));
    // The closed file and the file outside the watched dir make no record.
    expect(deletes.map((d) => [d.api, d.path, d.held.map((id) => listed.get(id)?.path), topUserFrame(d.frames)?.line])).toEqual([
      ['os.remove', join(scratch.watched, 'held.h5'), [join(scratch.watched, 'held.h5')], lineOf(SCRIPT, 'the remove of a held file')],
      ['shutil.rmtree', join(scratch.watched, 'tree'), [join(scratch.watched, 'tree', 'inner.nc')], lineOf(SCRIPT, 'the rmtree of a dir')],
    ]);
    // A listed open is a sighting: its fd and file, no stack.
    for (const open of listed.values()) expect(open).toMatchObject({ api: 'native', fd: expect.any(Number), frames: [] });

    // What holdwatch makes of it: each held file a leak no scan saw, deleted while open, by that call.
    const leaks = findProbeLeaks(indexProbeRecords(records), {
      watchedDirOf: (p) => (p.startsWith(scratch.watched) ? scratch.watched : null),
      seen: () => false,
    });
    expect(leaks.map((l) => [l.open.path, l.stack.unlinkedWhileOpen, l.stack.deletedBy?.api])).toEqual([
      [join(scratch.watched, 'held.h5'), true, 'os.remove'],
      [join(scratch.watched, 'tree', 'inner.nc'), true, 'shutil.rmtree'],
    ]);
  });
});
