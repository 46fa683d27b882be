// Which frames of a probe's stack can be "your code". A probe marks each frame `user` as it sees it;
// this is the receiving side's rule on top of it: a frame of the runtime itself is never the user's,
// whatever a probe (an older one, one that did not know the form) said. The headline names the first
// user frame: `wasm://wasm/004dedba:1` (an SQLite compiled to WebAssembly) or `node:fs` is not a line
// anyone can open.
import type { ParsedProbeLog, ProbeRecord } from '../../contract/probe-log.js';
import { parseProbeLog as parseRecords } from '../../contract/probe-log.js';

/**
 * Node's built-in modules (`node:fs`, `node:internal/...`; `internal/...` before Node 16), WebAssembly
 * functions (`wasm://wasm/<hash>`), V8's own (`native`, `<anonymous>`), Python's frozen modules.
 */
const RUNTIME_FILE = /^(?:node:|wasm:\/\/|wasm-function\[|internal\/|native(?:\s|$)|<anonymous>$|<frozen )/;

export function isRuntimeFrame(file: string): boolean {
  return RUNTIME_FILE.test(file);
}

/** A probe log's records, with no runtime frame marked as the user's. */
export function parseProbeLog(content: string): ParsedProbeLog {
  const parsed = parseRecords(content);
  return { ...parsed, records: parsed.records.map(withRuntimeFramesUnmarked) };
}

function withRuntimeFramesUnmarked<R extends ProbeRecord>(record: R): R {
  if (!('frames' in record) || !record.frames.some((f) => f.user && isRuntimeFrame(f.file))) return record;
  return { ...record, frames: record.frames.map((f) => (f.user && isRuntimeFrame(f.file) ? { ...f, user: false } : f)) };
}
