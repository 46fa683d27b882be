// A run's journal entries as the front ends want them (RunEvents): holders and failures with their
// attribution so far, each attributed alone as its entry arrives, and the whole record at most every
// RECORD_EVERY_MS (at once after a failure) while anyone listens. The supervisor of a run holdwatch
// started and the follower of a terminal's run both feed one.
import type { FailureRecord, RunEvent, RunRecord, AttributedHolder } from '../../contract/runs.js';
import type { JournalEntry } from '../../contract/journal.js';
import type { Clock } from '../clock.js';
import { Emitter } from '../emitter.js';
import { phaseEventsOf } from '../runners/folded-phases.js';

/** The whole record is sent at most this often while a run goes (each failure at once). */
export const RECORD_EVERY_MS = 300;

/** What the feed reads of a run's recorder after each entry was applied to it. */
export interface RecordSoFar {
  record(): RunRecord;
  attributedHolder(key: string): AttributedHolder | null;
  lastFailure(): FailureRecord | null;
}

export class RunEventFeed {
  private readonly emitter: Emitter<[RunEvent]>;
  /** The run's header: a listener that comes later hears it first. */
  private started: RunEvent | null = null;
  private cancelRecord: (() => void) | null = null;
  private closed = false;
  private listeners = 0;

  constructor(
    private readonly recorder: RecordSoFar,
    private readonly clock: Pick<Clock, 'setTimeout'>,
    /** A listener that threw: the others still hear the event. */
    onListenerError: (error: unknown) => void,
  ) {
    this.emitter = new Emitter(onListenerError);
  }

  /** Adds a listener (the run's 'started' event first, when it has started); returns its removal. */
  on(listener: (event: RunEvent) => void): () => void {
    if (this.started) listener(this.started);
    const off = this.emitter.on(listener);
    this.listeners++;
    let on = true;
    return () => {
      if (on) this.listeners--;
      on = false;
      off();
    };
  }

  /** An entry the recorder has just applied. */
  entry(entry: JournalEntry): void {
    if (entry.t === 'run-start') this.started = { type: 'started', command: entry.command, cwd: entry.cwd, watched: entry.watched };
    if (this.closed || this.listeners === 0) return;
    // A test's end with its phases folded in: a listener hears each phase, then the end, as the runner told them.
    if (entry.t === 'test' && entry.phases) for (const phase of phaseEventsOf(entry.event, entry.phases)) this.emitter.emit({ type: 'test', event: phase });
    const event = this.eventOf(entry);
    if (event) this.emitter.emit(event);
    this.recordSoon(entry.t === 'failure');
  }

  /** The run is over (its end is the front end's to say): no record is sent any more. */
  close(): void {
    this.closed = true;
    this.cancelRecord?.();
    this.cancelRecord = null;
  }

  private eventOf(entry: JournalEntry): RunEvent | null {
    switch (entry.t) {
      case 'run-start':
        return this.started;
      case 'test':
        return { type: 'test', event: entry.event };
      case 'appeared':
      case 'changed':
      case 'gone': {
        const holder = this.recorder.attributedHolder(entry.key);
        return holder ? { type: 'holder', change: entry.t, at: new Date(entry.atMs).toISOString(), holder } : null;
      }
      case 'failure': {
        const failure = this.recorder.lastFailure();
        return failure ? { type: 'failure', failure } : null;
      }
      default:
        return null;
    }
  }

  private recordSoon(urgent: boolean): void {
    if (urgent) {
      this.cancelRecord?.();
      this.cancelRecord = null;
      this.sendRecord();
      return;
    }
    this.cancelRecord ??= this.clock.setTimeout(() => {
      this.cancelRecord = null;
      this.sendRecord();
    }, RECORD_EVERY_MS);
  }

  private sendRecord(): void {
    if (!this.closed) this.emitter.emit({ type: 'record', record: this.recorder.record() });
  }
}
