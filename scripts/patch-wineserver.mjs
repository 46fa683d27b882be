// Writes a copy of Wine 8.0's wineserver with one bug fixed, for the Wine suite (scripts/wine-setup.sh).
//
// The bug: server/handle.c enum_handles() walks a process's handle table with an unsigned index,
// `for (i = 0, entry = table->entries; i <= table->last; i++, entry++)`, where `last` is an int that is
// -1 while the table is empty: a process started from Linux (`wine node.exe`) has an empty table until
// its first handle. NtQuerySystemInformation(SystemHandleInformation) at that moment walks past the
// table's end and the server dies by SIGSEGV, taking every Wine process with it. holdwatch reads that
// table on every poll and the suite starts Wine processes while it polls, so under load this ended ~1
// Wine suite in 5 (the core dump's faulting loop: `cmp %edi,0x54(%r10); jb` with `last` = 0xffffffff).
// Windows itself has no such bug; holdwatch cannot avoid it from its side.
//
// The fix, in the compiled loop (GCC put the first bound check after the first entry, knowing that
// `0 <= unsigned` holds): the loop is entered at its bound check, and that check compares signed
// (jb -> jl), so `last` = -1 ends it before any entry is read. Both sites are found by their bytes
// and must be found exactly once, the jump must land where the fix expects, or nothing is written.
// Usage: patch-wineserver.mjs <wineserver64> <out>
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

// mov 0x60(%r10),%rdx; mov $4,%r8d; xor %edi,%edi; jmp <rel8>: the entry into the loop.
const ENTRY = Buffer.from('498b526041b80400000031ffeb', 'hex');
// add $4,%r8d; cmp %edi,0x54(%r10); jb <rel8>; cmpq $0,(%rdx): the bound check and the entry test.
const BOUND = Buffer.from('4183c00441397a5472', 'hex');
const ENTRY_TEST = Buffer.from('48833a00', 'hex');
const JB = 0x72;
const JL = 0x7c;

export function patchWineserver(binary) {
  const entry = onlyIndexOf(binary, ENTRY, 'the loop entry');
  const bound = onlyIndexOf(binary, BOUND, 'the bound check');
  const jmpEnd = entry + ENTRY.length + 1; // the byte after the jmp's rel8
  const entryTest = bound + BOUND.length + 1;
  if (!binary.subarray(entryTest, entryTest + ENTRY_TEST.length).equals(ENTRY_TEST)) throw new Error('the entry test is not where expected');
  if (jmpEnd + binary.readInt8(entry + ENTRY.length) !== entryTest) throw new Error('the loop entry does not jump to the entry test');
  const boundCheck = bound + 4; // cmp %edi,0x54(%r10)
  const patched = Buffer.from(binary);
  patched.writeInt8(boundCheck - jmpEnd, entry + ENTRY.length);
  patched[bound + BOUND.length - 1] = JL;
  if (binary[bound + BOUND.length - 1] !== JB) throw new Error('the bound check is not a jb');
  return patched;
}

function onlyIndexOf(haystack, needle, what) {
  const first = haystack.indexOf(needle);
  if (first < 0 || haystack.indexOf(needle, first + 1) >= 0) throw new Error(`${what} is not found exactly once: not the Wine 8.0 build this fix knows`);
  return first;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const [source, out] = process.argv.slice(2);
  try {
    const patched = patchWineserver(readFileSync(source));
    writeFileSync(`${out}.partial`, patched);
    chmodSync(`${out}.partial`, 0o755);
    renameSync(`${out}.partial`, out);
  } catch (error) {
    process.stderr.write(`patch-wineserver: ${error.message}\n`);
    process.exit(3);
  }
}
