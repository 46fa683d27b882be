// How many File rows of the system handle table differ between two reads (a row: pid, handle value,
// access, object). The Windows poll bench prints it to tell a table that changes under the poll from
// a poll that does work of its own (re-checks, module lists, mapped views).
import { entryAt, fileRowIndices, type TableSnapshot } from '../native/win32/file-rows.js';

function fileRowKeys(snapshot: TableSnapshot): string[] {
  return snapshot.blocks.flatMap((block) =>
    fileRowIndices(snapshot, block).map((row) => {
      const e = entryAt(snapshot, row);
      return `${e.pid},${e.handle},${e.grantedAccess},${e.object}`;
    }),
  );
}

/** Rows in one read and not the other, both ways (a row whose access changed counts twice). */
export function changedRowCount(before: TableSnapshot, after: TableSnapshot): number {
  const left = new Map<string, number>();
  for (const key of fileRowKeys(before)) left.set(key, (left.get(key) ?? 0) + 1);
  let changed = 0;
  for (const key of fileRowKeys(after)) {
    const n = left.get(key) ?? 0;
    if (n > 0) left.set(key, n - 1);
    else changed++;
  }
  for (const n of left.values()) changed += n;
  return changed;
}
