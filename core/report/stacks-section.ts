// The code behind each holder: the line that opened the file and the line that started the process,
// as the probes recorded them. Innermost frame first, the first user frame marked.
import type { AttributedHolder, Attribution } from '../../contract/runs.js';
import type { DeletedBy, StackLookup } from '../../contract/stacks.js';
import { mdCode, mdFence } from './text.js';

const MAX_FRAMES = 8;

export function formatStack(lookup: StackLookup): string {
  if (!lookup.found) return '';
  const frames = lookup.stack.frames.slice(0, MAX_FRAMES).map((f) => `${f.user ? '>' : ' '} ${f.file}:${f.line}${f.function ? ` in ${f.function}` : ''}`);
  return frames.join('\n');
}

/** `file:line` of the first user frame, the line a reader should open. */
export function topUserFrame(lookup: StackLookup | undefined): string | null {
  if (!lookup?.found) return null;
  const frame = lookup.stack.frames.find((f) => f.user) ?? lookup.stack.frames[0];
  return frame ? `${frame.file}:${frame.line}` : null;
}

/** The probed call that deleted the path while this holding was there: its own process's, else a parent's. */
export function deletionOf(a: Attribution): DeletedBy | undefined {
  return (a.openStack?.found ? a.openStack.stack.deletedBy : undefined) ?? a.deletedBy;
}

/**
 * The call that deleted the file while it was held, as "`api` at `file:line`" (its first user frame)
 * and "while open" or "while its child held it" (the parent's call); null when the probe saw none.
 */
export function deletionCall(a: Attribution): { api: string; at: string; when: string } | null {
  const deletedBy = deletionOf(a);
  if (!deletedBy) return null;
  const frame = deletedBy.frames.find((f) => f.user) ?? deletedBy.frames[0];
  const when = deletedBy.pid === undefined ? 'while open' : `while held, by its parent PID ${deletedBy.pid}'s`;
  return { api: deletedBy.api, at: frame ? `${frame.file}:${frame.line}` : '?', when };
}

/** "closed by the garbage collector during `test`" pieces, for a holder the code never closed; null otherwise. */
export function finalizerClose(holder: AttributedHolder): { what: string; during: string | null } | null {
  const closed = holder.attribution.closedByFinalizer;
  if (!closed) return null;
  const what = closed.resource === 'sqlite' ? 'never closed by the code (no close() on the connection)' : 'never closed by the code';
  return { what: `${what}; the garbage collector closed it`, during: closed.during };
}

/** What a report says of an open no call was seen making (a C library's, a native addon's): there is no stack to show. */
export const LISTED_TEXT = "found open in the process's own descriptor list: opened by native code, no stack to show";

/** An open the process found in its own descriptor list (no frames): a sighting, not a recorded call. */
export function isListedOnly(lookup: Extract<StackLookup, { found: true }>): boolean {
  return lookup.stack.listed === true && lookup.stack.frames.length === 0;
}

export function stacksSection(holders: readonly AttributedHolder[], maxRows: number): string {
  const withStacks = holders.filter((h) => h.attribution.openStack?.found || h.attribution.spawnStack?.found || h.attribution.deletedBy);
  if (withStacks.length === 0) return '';
  const blocks = withStacks.slice(0, Math.min(maxRows, 20)).map((h) => {
    const parts = [`- ${mdCode(h.processName)} PID ${h.pid}, ${mdCode(h.path)}`];
    const { openStack, spawnStack } = h.attribution;
    if (openStack?.found && isListedOnly(openStack)) parts.push(`  ${LISTED_TEXT}`);
    else if (openStack?.found)
      parts.push(`  opened by ${mdCode(openStack.stack.api)} at ${mdCode(topUserFrame(openStack) ?? '?')}:`, indent(mdFence(formatStack(openStack))));
    const finalized = finalizerClose(h);
    if (finalized) parts.push(`  ${finalized.what} ${finalized.during === null ? 'between tests' : `during ${mdCode(finalized.during)}`}`);
    const deletion = deletionCall(h.attribution);
    if (deletion) parts.push(`  deleted ${deletion.when} ${mdCode(deletion.api)} at ${mdCode(deletion.at)}: on Windows, that call fails`);
    if (spawnStack?.found)
      parts.push(
        `  process started by ${mdCode(spawnStack.stack.api)} at ${mdCode(topUserFrame(spawnStack) ?? '?')} (PID ${spawnStack.stack.pid}):`,
        indent(mdFence(formatStack(spawnStack))),
      );
    return parts.join('\n');
  });
  const more = withStacks.length - blocks.length;
  if (more > 0) blocks.push(`… and ${more} more holders with stacks (the JSON report has all of them)`);
  return ['#### Where it was opened (`>` marks your code)', blocks.join('\n')].join('\n\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
