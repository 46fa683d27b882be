// A run `holdwatch run` records in a terminal, followed from the UI: its journal read as it grows
// (read only: the journal is the terminal's) and folded by the same RunRecorder the run itself uses,
// until its run-end entry, or until its holdwatch is gone without one. Following never signals the run.
import type { AttributedHolder, RunEvent, RunRecord } from '../../contract/runs.js';
import { parseJournal } from '../../contract/journal.js';
import { RunEventFeed } from '../../core/run/run-events.js';
import { RunRecorder } from '../../core/run/run-recorder.js';
import { systemClock } from '../system-clock.js';
import { LineSplitter } from '../../core/runners/line-splitter.js';
import { EventsTail } from './events-tail.js';

/** How often the run's holdwatch is checked for being gone (killed outright, it writes no run-end). */
const ALIVE_POLL_MS = 1000;

export interface FollowHooks {
  /** The run as read, the history first: holders and failures attributed so far, the record paced. */
  onEvent(event: RunEvent): void;
  /** A listener of the run's events threw; the others still heard it. */
  onListenerError(error: unknown): void;
  /** Once: the run ended (its record is final), its holdwatch vanished (`error`), or detach(). */
  onEnd(end: { exitCode: number | null; record: RunRecord | null; error: string | null }): void;
}

export class FollowedRun {
  private readonly recorder = new RunRecorder();
  private readonly feed: RunEventFeed;
  private readonly lines = new LineSplitter();
  private started = false;
  private ended = false;
  private readonly tail: EventsTail;
  private readonly timer: NodeJS.Timeout;

  constructor(
    journalPath: string,
    private readonly pid: number,
    isRunning: () => Promise<boolean>,
    private readonly hooks: FollowHooks,
  ) {
    this.feed = new RunEventFeed(this.recorder, systemClock, (error) => hooks.onListenerError(error));
    this.feed.on((event) => this.hooks.onEvent(event));
    this.tail = new EventsTail(journalPath, (text) => this.read(text), { create: false });
    this.timer = setInterval(
      () =>
        void isRunning().then(
          (alive) => alive || this.lost(),
          () => undefined,
        ),
      ALIVE_POLL_MS,
    );
    this.tail.drain(); // the history at once (and a run that already ended ends here, timer cleared)
  }

  /** Stops following; the run goes on in its terminal. The UI keeps the record so far. */
  detach(): void {
    this.end(null, null);
  }

  /** The record so far. */
  record(): RunRecord {
    return this.recorder.record();
  }

  /** One holder as attributed now, by its journal key. */
  attributedHolder(key: string): AttributedHolder | null {
    return this.recorder.attributedHolder(key);
  }

  /** Stops following without a word (another follower takes over). Idempotent. */
  close(): void {
    this.ended = true;
    this.feed.close();
    clearInterval(this.timer);
    this.tail.close();
  }

  private read(text: string): void {
    for (const entry of parseJournal(this.lines.push(text)).entries) {
      if (this.ended) return;
      this.recorder.apply(entry);
      this.started ||= entry.t === 'run-start';
      if (!this.started) continue; // a journal is nothing without its start
      this.feed.entry(entry);
      if (entry.t === 'run-end') this.end(entry.exitCode, null);
    }
  }

  private lost(): void {
    if (this.ended) return;
    this.tail.drain(); // a run-end written just before it exited
    this.end(null, `The holdwatch run (pid ${this.pid}) stopped before it finished its record; this is what it recorded.`);
  }

  private end(exitCode: number | null, error: string | null): void {
    if (this.ended) return;
    this.close();
    this.hooks.onEnd({ exitCode, record: this.started ? this.recorder.record() : null, error });
  }
}
