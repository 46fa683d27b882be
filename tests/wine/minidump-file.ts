// Reads just enough of a minidump to check it (MINIDUMP_HEADER, the stream directory, the thread
// and module lists), so the Wine test can compare the dump with what `holdwatch stack` printed.
const ThreadListStream = 3;
const ModuleListStream = 4;

export interface MinidumpSummary {
  signature: string;
  threadIds: number[];
  moduleNames: string[];
}

export function readMinidump(bytes: Buffer): MinidumpSummary {
  const signature = bytes.toString('latin1', 0, 4);
  const streams = bytes.readUInt32LE(8);
  const directory = bytes.readUInt32LE(12);
  const summary: MinidumpSummary = { signature, threadIds: [], moduleNames: [] };
  for (let i = 0; i < streams; i++) {
    const type = bytes.readUInt32LE(directory + i * 12);
    const rva = bytes.readUInt32LE(directory + i * 12 + 8);
    // MINIDUMP_THREAD is 48 bytes, ThreadId first; MINIDUMP_MODULE is 108 bytes, ModuleNameRva @20.
    if (type === ThreadListStream) {
      for (let t = 0; t < bytes.readUInt32LE(rva); t++) summary.threadIds.push(bytes.readUInt32LE(rva + 4 + t * 48));
    }
    if (type === ModuleListStream) {
      for (let m = 0; m < bytes.readUInt32LE(rva); m++) {
        const name = bytes.readUInt32LE(rva + 4 + m * 108 + 20);
        summary.moduleNames.push(bytes.toString('utf16le', name + 4, name + 4 + bytes.readUInt32LE(name)));
      }
    }
  }
  return summary;
}
