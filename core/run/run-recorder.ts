// Folds journal entries into a RunRecord, attributing every holder. Used live by the supervisor and
// later by `holdwatch report`, so both always agree.
import type { Holder } from '../../contract/holders.js';
import { inheritedCopyKey } from '../../contract/identity.js';
import type { Attribution, AttributedHolder, Evidence, FailureRecord, RunRecord, Verdict } from '../../contract/runs.js';
import { isUnder, POSIX_STYLE, WINDOWS_STYLE } from '../paths.js';
import type { HolderStacks, JournalEntry, MemberFacts } from '../../contract/journal.js';
import type { GcResource } from '../../contract/probe-log.js';
import type { OpenStack, StackLookup } from '../../contract/stacks.js';
import type { RunPlace } from './leftovers.js';
import { batsHintFromAncestry, type TestHint } from './membership.js';
import { scratchOf } from './scratch.js';
import { testOfGoTempDir } from './temp-dir-names.js';
import { TestTimeline } from './timeline.js';

interface LedgerRow {
  key: string;
  holder: Holder;
  member: MemberFacts | null;
  firstSeenAtMs: number;
  /** The start of the scan that first saw it: sightings and boundary scans are ordered by this. */
  firstScanStartedAtMs: number;
  lastSeenAtMs: number;
  goneAtMs: number | null;
  blocked: boolean;
  stacks?: HolderStacks;
  /** Set for a holding only the probe saw (its process exited before a scan). */
  seenByProbe?: boolean;
  /** The runtime's finalizer closed it, not the code (the probe's gc-close record). */
  closedByFinalizer?: { atMs: number; during: string | null; resource: GcResource; api: string };
}

/**
 * A holder with the key its journal entries use and, when a scan saw it, when that first scan began:
 * the scan may have read an fd the code closed before the scan ended (and was dated).
 */
export interface KeyedHolder {
  key: string;
  holder: AttributedHolder;
  seenFromMs?: number;
}

/**
 * How late runner events read from output (TAP, go test, bats' formatter, node:test's reporter) are
 * assumed to be stamped after the moment they describe. Events the test's own process stamped
 * (TestEvent.inTestProcess) are exact and compared as they are.
 */
export const RUNNER_LAG_MS = 25;

type Start = Extract<JournalEntry, { t: 'run-start' }>;
type Failure = Extract<JournalEntry, { t: 'failure' }>;

/**
 * A test's end (or a wider scope's: a module's, a class's) as the scan its process waited for saw it, or
 * as the process listed it itself (`by`).
 */
interface Boundary {
  test: string;
  scope?: Scope['kind'];
  by: 'test-boundary' | 'self-inventory';
  pid: number;
  scanStartedAtMs: number;
  held: ReadonlySet<string>;
}

interface Finding {
  test: string | null;
  by: Evidence | null;
  /** Opened outside any test: the wider scope that had to close it. */
  scope?: Scope;
}

type Scope = NonNullable<Attribution['scope']>;

export class RunRecorder {
  private start: Start | undefined;
  private readonly timeline = new TestTimeline();
  private readonly ledger = new Map<string, LedgerRow>();
  private readonly failures: Failure[] = [];
  /** In journal order, which is scan order. */
  private readonly boundaries: Boundary[] = [];
  /** Per process stopped at its exit (a Go test binary): the keys it held then. */
  private readonly heldAtExit = new Map<number, ReadonlySet<string>>();
  private leftovers: RunRecord['leftovers'] = [];
  private end: { atMs: number; exitCode: number | null } | undefined;
  /** When the command's own process exited, when holdwatch started it. */
  private commandExitAtMs: number | undefined;
  private lastStage: string | undefined;

  apply(entry: JournalEntry): void {
    switch (entry.t) {
      case 'run-start':
        this.start = entry;
        break;
      case 'test':
        this.timeline.apply(entry.event);
        break;
      case 'appeared': {
        // A poll meeting what the process's own list already made a row of: the same holding, first
        // seen then.
        const listed = this.ledger.get(entry.key);
        if (listed && listed.goneAtMs === null) {
          // The scan may have begun before the list was taken: an unlink the list saw stays seen.
          listed.holder = { ...entry.holder, deleted: entry.holder.deleted || listed.holder.deleted };
          break;
        }
        this.ledger.set(entry.key, {
          key: entry.key,
          holder: entry.holder,
          member: entry.member,
          firstSeenAtMs: entry.atMs,
          firstScanStartedAtMs: entry.scanStartedAtMs ?? entry.atMs,
          lastSeenAtMs: entry.scanStartedAtMs ?? entry.atMs,
          goneAtMs: null,
          blocked: false,
        });
        break;
      }
      case 'deleted': {
        const row = this.ledger.get(entry.key);
        if (row) row.holder = { ...row.holder, deleted: true };
        break;
      }
      case 'gone': {
        const row = this.ledger.get(entry.key);
        if (row) Object.assign(row, { goneAtMs: entry.atMs, lastSeenAtMs: entry.lastSeenAtMs });
        break;
      }
      case 'failure':
        this.failures.push(entry);
        for (const key of entry.holderKeys) {
          const row = this.ledger.get(key);
          if (row) row.blocked = true;
        }
        break;
      case 'boundary':
        this.boundaries.push({
          test: entry.test,
          ...(entry.scope ? { scope: entry.scope } : {}),
          by: entry.listed ? 'self-inventory' : 'test-boundary',
          pid: entry.pid,
          scanStartedAtMs: entry.scanStartedAtMs,
          held: new Set(entry.held),
        });
        break;
      case 'exit-stop':
        this.heldAtExit.set(entry.pid, new Set(entry.held));
        break;
      case 'failure-test': {
        const failure = this.failures.findLast((f) => f.atMs === entry.atMs && !f.test);
        if (failure) failure.test = entry.test;
        break;
      }
      case 'leftovers':
        this.leftovers = entry.leftovers;
        break;
      case 'stacks':
        for (const [key, stacks] of Object.entries(entry.byKey)) {
          const row = this.ledger.get(key);
          if (!row) continue;
          row.stacks = stacks;
          // The probe saw the file unlinked while open at its test's end, whether or not a scan saw that.
          if (stacks.open.found && stacks.open.stack.unlinkedWhileOpen) row.holder = { ...row.holder, deleted: true };
        }
        break;
      case 'probe-held':
        this.ledger.set(entry.key, {
          key: entry.key,
          holder: entry.holder,
          member: entry.member,
          firstSeenAtMs: entry.atMs,
          firstScanStartedAtMs: entry.atMs,
          lastSeenAtMs: entry.heldUntilMs,
          goneAtMs: entry.heldUntilMs,
          blocked: false,
          stacks: entry.stacks,
          seenByProbe: true,
        });
        break;
      case 'gc-closed': {
        const closedByFinalizer = { atMs: entry.atMs, during: entry.closedDuring, resource: entry.resource, api: entry.api };
        const row = this.ledger.get(entry.key);
        if (row) {
          row.closedByFinalizer = closedByFinalizer;
          // The finalizer's record names the open it closed: no stack matched by a scan's date beats it.
          // It keeps the scope the open record gave (a module fixture's), which the finalizer's lacks.
          const scope = row.stacks?.open.found ? row.stacks.open.stack.scope : undefined;
          const open = scope && entry.open?.found && entry.open.stack.test == null ? { ...entry.open, stack: { ...entry.open.stack, scope } } : entry.open;
          if (open) row.stacks = { open, spawn: row.stacks?.spawn ?? { found: false, reason: 'no spawn stack: not matched' } };
        } else if (entry.unseen)
          this.ledger.set(entry.key, {
            key: entry.key,
            holder: entry.unseen.holder,
            member: entry.unseen.member,
            firstSeenAtMs: entry.openedAtMs,
            firstScanStartedAtMs: entry.openedAtMs,
            lastSeenAtMs: entry.atMs,
            goneAtMs: entry.atMs,
            blocked: false,
            stacks: entry.unseen.stacks,
            seenByProbe: true,
            closedByFinalizer,
          });
        break;
      }
      case 'stage':
        this.lastStage = entry.stage;
        break;
      case 'command-exit':
        this.commandExitAtMs = entry.atMs;
        break;
      case 'run-end':
        this.end = entry;
        for (const [key, atMs] of Object.entries(entry.lastSeen)) {
          const row = this.ledger.get(key);
          if (row) row.lastSeenAtMs = Math.max(row.lastSeenAtMs, atMs);
        }
        break;
    }
  }

  /**
   * The test running at a real moment `ms` (a process start, a file's birth, a poll). Runner events read
   * from output are stamped late (test2json when it reads the line, a reporter or formatter in another
   * process when it hears of it, we when we read it), so against those the moment is compared as if
   * RUNNER_LAG_MS later; measured here: go test -json ~8 ms late.
   */
  testAt(ms: number): string | null {
    return this.timeline.testAt(ms, RUNNER_LAG_MS);
  }

  /** The test running at `ms`, or else the last one that had ended by then. */
  placeAt(ms: number): RunPlace {
    const during = this.testAt(ms);
    return { during, after: during === null ? this.timeline.lastEndedBefore(ms, RUNNER_LAG_MS) : null };
  }

  /**
   * The test a run's process was spawned in: its runner's hint; else the test the probe recorded at the
   * spawn call (in the parent, so exact however the child detached); else the test running when it started.
   */
  spawnTestOf(member: MemberFacts, processStartedAtMs: number, spawn?: StackLookup): string | null {
    const probed = spawn?.found ? (spawn.stack.test ?? null) : null;
    return this.testOfHint(member.testHint ?? batsHintFromAncestry(member.ancestry)) ?? probed ?? this.testAt(processStartedAtMs);
  }

  /** The test a runner's environment variable names, matched against the timeline's names. */
  private testOfHint(hint: TestHint | undefined): string | null {
    if (!hint) return null;
    const tests = this.timeline.records();
    if (hint.runner === 'bats') return tests[hint.number - 1]?.name ?? null;
    return tests.find((t) => t.name === hint.nodeId || t.name.endsWith(`/${hint.nodeId}`))?.name ?? hint.nodeId;
  }

  /** Every holder seen, with the key its journal entries use (for matching stacks at the end). */
  keyedHolders(): KeyedHolder[] {
    return [...this.ledger.entries()].map(([key, row]) => ({ key, holder: this.attribute(row), seenFromMs: row.firstScanStartedAtMs }));
  }

  /**
   * One holder as attributed now, by its journal key; null when never seen. What a front end sends per
   * entry: building the whole record per entry made a replayed journal quadratic (1,000 holders: 6 s).
   */
  attributedHolder(key: string): AttributedHolder | null {
    const row = this.ledger.get(key);
    return row ? this.attribute(row) : null;
  }

  record(): RunRecord {
    const start = this.start;
    if (!start) throw new Error('journal has no run-start entry');
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      runId: start.runId,
      command: start.command,
      cwd: start.cwd,
      watched: start.watched,
      platform: start.platform,
      exitCode: this.end?.exitCode ?? null,
      startedAt: iso(start.atMs),
      endedAt: this.end ? iso(this.end.atMs) : null,
      ...(this.commandExitAtMs === undefined ? {} : { commandExitedAt: iso(this.commandExitAtMs) }),
      ...(!this.end && this.lastStage !== undefined ? { stoppedWhile: this.lastStage } : {}),
      tests: this.timeline.records(),
      holders: foldInherited([...this.ledger.values()]).map(({ row, also }) => ({
        ...this.attribute(row),
        ...(also.length > 0
          ? { alsoHeldBy: also.map((r) => ({ pid: r.holder.pid, processName: r.holder.processName, processStartedAtMs: r.holder.processStartedAtMs })) }
          : {}),
      })),
      failures: this.failures.map((f): FailureRecord => ({
        at: iso(f.atMs),
        text: f.text,
        path: f.path,
        kind: f.kind,
        code: f.code,
        // Runners like bats and go print a test's output after it ended: then it is the last one ended.
        test: f.test ?? this.timeline.testAt(f.atMs) ?? this.timeline.lastEndedBefore(f.atMs),
        holders: f.holderKeys.flatMap((key) => {
          const row = this.ledger.get(key);
          return row ? [this.attribute(row)] : [];
        }),
      })),
      leftovers: this.leftovers,
      versions: start.versions,
    };
  }

  private attribute(row: LedgerRow): AttributedHolder {
    // Looked up now, not when the entry arrived: runner events may reach us after the poll that saw it.
    // A row only the probe saw was seen at its open, inside its process, where the probe knew the test:
    // the runners' lag (which dates a scan against their events) does not apply to it.
    const probeOpen = row.seenByProbe && row.stacks?.open.found ? row.stacks.open.stack : undefined;
    // An open of a wider scope that only the probe saw was made outside any test.
    const firstSeenDuring = (probeOpen && this.recordedTest(probeOpen)) ?? (probeOpen?.scope ? null : this.testAt(row.firstSeenAtMs));
    const spawnedDuring = row.member ? this.spawnTestOf(row.member, row.holder.processStartedAtMs, row.stacks?.spawn) : null;
    const opened = this.openedDuring(row, firstSeenDuring);
    const { verdict, by } = this.verdictOf(row, opened);
    return {
      ...row.holder,
      attribution: {
        spawnedDuring,
        firstSeenDuring,
        openedDuring: opened.test,
        openedDuringBy: opened.by,
        ...(opened.scope ? { scope: opened.scope } : {}),
        verdict,
        verdictBy: by,
        ...(row.seenByProbe ? { seenBy: 'probe' as const } : {}),
        ...(row.closedByFinalizer ? { closedByFinalizer: closedByFinalizerOf(row.closedByFinalizer) } : {}),
        ...(scratchOf(row.holder) === null ? {} : { scratch: scratchOf(row.holder)! }),
        ancestry: row.member?.ancestry ?? [],
        firstSeenAt: new Date(row.firstSeenAtMs).toISOString(),
        // Last sight is dated conservatively (a scan's start), so it may precede a first sight dated at
        // the same scan's end; shown, it is never earlier than the first.
        lastSeenAt: new Date(Math.max(row.lastSeenAtMs, row.firstSeenAtMs)).toISOString(),
        ...(row.stacks ? { openStack: row.stacks.open, spawnStack: row.stacks.spawn } : {}),
      },
    };
  }

  /**
   * The test during which the handle was opened, by the strongest evidence there is: the probe's record
   * of the open (made in that process, with the test in progress there); else the test-boundary scans
   * of its test process (a handle first seen after one test's end scan and by the next one's was opened
   * during that next test, however short); else the test whose temp dir holds the file (Go's
   * t.TempDir()); else the runner's timeline at its first sighting.
   */
  private openedDuring(row: LedgerRow, firstSeenDuring: string | null): Finding {
    const open = row.stacks?.open;
    if (open?.found && open.viaPid === null) {
      // A descriptor the process listed itself knows its scope exactly, not its line.
      const by = open.stack.runtime === 'strace' ? 'syscall-ledger' : open.stack.listed ? 'self-inventory' : 'probe-open';
      if (typeof open.stack.test === 'string') return { test: this.recordedTest(open.stack) ?? open.stack.test, by };
      if (open.stack.scope) return { test: null, by, scope: open.stack.scope };
    }
    if (this.presentBeforeFirstTest(row)) return { test: null, by: null };
    // The process's own lists say exactly when it began to hold it: the first test end that lists it.
    const listed = this.boundariesOf(row).find((b) => !b.scope && b.by === 'self-inventory' && b.pid === row.holder.pid && b.held.has(row.key));
    if (listed) return { test: listed.test, by: 'self-inventory' };
    const next = this.boundariesOf(row).find((b) => !b.scope && b.scanStartedAtMs >= row.firstScanStartedAtMs);
    if (next) return { test: next.test, by: next.by };
    const owner = testOfGoTempDir(row.holder.path, this.timeline.names());
    if (owner) return { test: owner, by: 'test-temp-dir' };
    // The polls' clock puts the first sighting outside any test (bats' formatter dates a test's start
    // late on a loaded machine), yet the process was spawned in a test and seen before that test
    // ended: a handle is never opened before its process began, so it was opened in that test.
    if (firstSeenDuring === null && row.member) {
      const spawned = this.spawnTestOf(row.member, row.holder.processStartedAtMs, row.stacks?.spawn);
      const end = this.timeline.endOf(spawned);
      if (spawned !== null && (end === null || row.firstSeenAtMs <= end)) return { test: spawned, by: 'process-tree' };
    }
    return { test: firstSeenDuring, by: firstSeenDuring === null ? null : 'poll' };
  }

  private verdictOf(row: LedgerRow, opened: Finding): { verdict: Verdict; by: Evidence } {
    if (!row.member) return { verdict: 'outside-run', by: 'process-tree' };
    // The runner's own scratch, an anonymous temp file: held past a test, but no teardown deletes it.
    if (scratchOf(row.holder) !== null) return { verdict: 'in-run', by: 'process-tree' };
    if (row.blocked) return { verdict: 'blocked-cleanup', by: 'failure-scan' };
    // A run process deleted a path while a run process held it (the probe saw the call, or a scan saw the
    // file unlinked): on Windows that delete fails, as the cleanup's does.
    if (row.stacks?.open.found && row.stacks.open.stack.deletedBy) return { verdict: 'blocked-cleanup', by: 'deleted-while-held' };
    if (row.holder.deleted) return { verdict: 'blocked-cleanup', by: 'deleted-while-held' };
    // The finalizer closed it, the code never did: inside its test, a leak CPython hides; after it
    // (a cycle collected later, between tests), it outlived its test as any leak does.
    const finalized = row.closedByFinalizer;
    if (finalized && opened.test !== null) return { verdict: finalized.during === opened.test ? 'closed-by-gc' : 'leaked-past-test', by: 'probe-finalizer' };
    const scopeEnd = opened.scope ? this.scopeEndOf(row, opened.scope) : undefined;
    if (finalized && scopeEnd) return { verdict: scopeEnd.held.has(row.key) ? 'leaked-past-test' : 'closed-by-gc', by: 'probe-finalizer' };
    // The probe inside the process wrote, at the end of its test or scope, whether this open was still open.
    const held = row.stacks?.open.found ? row.stacks.open.stack.heldPastTest : undefined;
    if ((opened.by === 'probe-open' || opened.by === 'self-inventory' || opened.by === 'syscall-ledger') && held !== undefined)
      return { verdict: held ? 'leaked-past-test' : 'in-run', by: opened.by };
    // The syscall ledger put the open, its test's end and the close in one order. An open made while
    // tests ran side by side names none of them, yet one still open at the last of their ends outlived
    // whichever test made it.
    const ledger = row.stacks?.open.found && row.stacks.open.viaPid === null && row.stacks.open.stack.runtime === 'strace';
    if (ledger && held !== undefined) return { verdict: held ? 'leaked-past-test' : 'in-run', by: 'syscall-ledger' };
    // Held when the scan at its scope's end ran (a module's fixtures finalized), the process waiting.
    if (scopeEnd) return { verdict: scopeEnd.held.has(row.key) ? 'leaked-past-test' : 'in-run', by: scopeEnd.by };
    if (opened.test !== null) {
      // Held when the scan at its test's end ran, the test process waiting: it outlived its test. On
      // Linux this is the prediction of a Windows teardown failure.
      const end = this.boundariesOf(row).find((b) => !b.scope && b.test === opened.test && this.isAfterFirstSight(b, row));
      if (end) return { verdict: end.held.has(row.key) ? 'leaked-past-test' : 'in-run', by: end.by };
      // Held while its process was stopped at its exit (after all of that process's tests).
      if (this.heldAtExit.get(row.holder.pid)?.has(row.key)) return { verdict: 'leaked-past-test', by: 'exit-stop' };
      // Polls only: still held after the command exited is the larger claim (it outlived its test too),
      // and whether a poll also met it before the exit is timing.
      if (this.seenAfterCommandExit(row)) return { verdict: 'outlived-run', by: 'poll' };
      // No boundary for it: seen at a poll that started after its test had ended.
      const testEnd = this.timeline.endOf(opened.test);
      if (testEnd !== null && row.lastSeenAtMs > testEnd) return { verdict: 'leaked-past-test', by: 'poll' };
    }
    // Seen by a scan begun after the command exited: its process lived on, holding it, after the run.
    if (this.seenAfterCommandExit(row)) return { verdict: 'outlived-run', by: 'poll' };
    return { verdict: 'in-run', by: opened.by ?? 'poll' };
  }

  private seenAfterCommandExit(row: LedgerRow): boolean {
    return this.commandExitAtMs !== undefined && row.lastSeenAtMs >= this.commandExitAtMs;
  }

  /** The scan at the end of a wider scope, after the holder was first seen, that its process waited for. */
  private scopeEndOf(row: LedgerRow, scope: Scope): Boundary | undefined {
    return this.boundariesOf(row).find((b) => b.scope && b.test === scope.name && this.isAfterFirstSight(b, row));
  }

  /**
   * A boundary speaks of a holding seen first before it: a scan's, when it began after that sighting;
   * a process's own list, always (it is exact whatever a poll saw meanwhile).
   */
  private isAfterFirstSight(b: Boundary, row: LedgerRow): boolean {
    return b.by === 'self-inventory' || b.scanStartedAtMs >= row.firstScanStartedAtMs;
  }

  /**
   * The test a recorded open names, as the timeline names it: a Go test binary writes `TestX`, while
   * `go test -json` names it `<package>.TestX`; among packages with a test of that name, the one that
   * had started last by the open.
   */
  private recordedTest(stack: OpenStack): string | undefined {
    const test = stack.test ?? undefined;
    if (test === undefined || stack.runtime !== 'strace') return test;
    const named = this.timeline.records().filter((t) => t.name === test || t.name.endsWith(`.${test}`));
    const started = named.filter((t) => Date.parse(t.startedAt) <= stack.atMs + RUNNER_LAG_MS);
    return (started.at(-1) ?? named.at(-1))?.name ?? test;
  }

  /**
   * Whether a holding existed before the first test began (known only where the test process stamped
   * the tests' starts: one read from output, go test's, may be stamped well after it): seen by a scan
   * that ended before then, or one its process has had since it started, when that was before: its
   * executable, its root, or the run's own working directory, which the command was started in (the
   * runner's cwd in a watched project).
   */
  private presentBeforeFirstTest(row: LedgerRow): boolean {
    const before = (ms: number) => this.timeline.beforeFirstTest(ms);
    if (before(row.firstSeenAtMs)) return true;
    const { kind, path, processStartedAtMs } = row.holder;
    const sinceItsStart = kind === 'exe' || kind === 'root' || (kind === 'cwd' && path === this.start?.cwd);
    return sinceItsStart && before(processStartedAtMs);
  }

  /** The boundaries that speak for a holder: those its own process or an ancestor (its test process) waited for. */
  private boundariesOf(row: LedgerRow): Boundary[] {
    if (this.boundaries.length === 0 || !row.member) return [];
    const family = new Set([row.holder.pid, ...row.member.ancestry.map((a) => a.pid)]);
    return this.boundaries.filter((b) => family.has(b.pid));
  }
}

function closedByFinalizerOf({ atMs, during, resource, api }: NonNullable<LedgerRow['closedByFinalizer']>): Attribution['closedByFinalizer'] {
  return { at: new Date(atMs).toISOString(), during, resource, api };
}

/**
 * Which of the holders present at a failure blocked it: those under the path the message names when
 * any are, else all of them (the message may name the path in another form).
 */
export function blockersOf(holders: readonly Holder[], failurePath: string | null): Holder[] {
  if (failurePath === null) return [...holders];
  const under = holdersOnPath(holders, failurePath);
  return under.length > 0 ? under : [...holders];
}

/** The holders of `path` itself or of something below it (a Windows-shaped path compares case-insensitively). */
export function holdersOnPath<T extends Holder>(holders: readonly T[], path: string): T[] {
  return holders.filter((h) => isOnOrUnder(h.path, path));
}

/** `path` is `dir` or lies below it; Windows-shaped paths compare case-insensitively. */
export function isOnOrUnder(path: string, dir: string): boolean {
  return isUnder(path, dir, /^[A-Za-z]:[\\/]|^\\\\/.test(dir) ? WINDOWS_STYLE : POSIX_STYLE);
}

/**
 * One leak, one row: a row whose process descends from another row's holding the same thing (the same
 * path, kind and fd number: an fd inherited across fork and exec; the same current directory) folds
 * into its nearest such ancestor's row, which lists it. Fd numbers survive fork and exec, so the same
 * number on the same path in a child stands for the open its parent made.
 */
function foldInherited(rows: readonly LedgerRow[]): { row: LedgerRow; also: LedgerRow[] }[] {
  // Not the deleted mark: a row keeps its latest sighting, so a parent seen after the file was unlinked
  // reads deleted while a 5 ms child that inherited the same fd was seen before (a bats writer's sleeps).
  const sameThing = (r: LedgerRow) => inheritedCopyKey(r.holder);
  const groups = new Map<string, LedgerRow[]>();
  for (const row of rows) groups.set(sameThing(row), [...(groups.get(sameThing(row)) ?? []), row]);
  const parentOf = new Map<LedgerRow, LedgerRow>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const byPid = new Map(group.map((r) => [r.holder.pid, r]));
    for (const row of group) {
      // The chain runs from the process itself up: its ancestors are the rest.
      const ancestors = row.member?.ancestry.filter((a) => a.pid !== row.holder.pid) ?? [];
      const holder = ancestors.map((a) => byPid.get(a.pid)).find((r) => r !== undefined && r.holder.processStartedAtMs <= row.holder.processStartedAtMs);
      if (holder) parentOf.set(row, holder);
    }
  }
  const rootOf = (row: LedgerRow): LedgerRow => {
    let at = row;
    for (let hops = 0; parentOf.has(at) && hops < 64; hops++) at = parentOf.get(at)!;
    return at;
  };
  const folded = new Map<LedgerRow, LedgerRow[]>();
  for (const row of rows) {
    const root = rootOf(row);
    if (root === row) folded.set(row, folded.get(row) ?? []);
    else folded.set(root, [...(folded.get(root) ?? []), row]);
  }
  return rows.filter((r) => folded.has(r)).map((row) => ({ row, also: folded.get(row)! }));
}
