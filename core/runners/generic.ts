// Any command: no test structure, only the run's start and end; the failure moments come from
// core/signatures on the lines this passes through.
import type { Clock } from '../clock.js';
import type { ParsedOutput, RunnerStreamParser, TestEvent } from './events.js';
import { LineSplitter, OUTPUT_LINE_CHARS } from './line-splitter.js';

export class GenericLineParser implements RunnerStreamParser {
  private readonly splitter = new LineSplitter(OUTPUT_LINE_CHARS, true);
  private started = false;

  constructor(
    private readonly runName: string,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** The run starts when the command is launched, not at its first output. */
  start(): ParsedOutput {
    return { events: this.startEvent(), lines: [] };
  }

  push(chunk: string): ParsedOutput {
    return { events: this.startEvent(), lines: this.splitter.push(chunk).map((text) => ({ text })) };
  }

  end(exitCode?: number | null): ParsedOutput {
    const events = this.startEvent();
    const lines = this.splitter.end().map((text) => ({ text }));
    const end: TestEvent = { type: 'run-end', name: this.runName, atMs: this.clock.now() };
    if (exitCode !== undefined && exitCode !== null) end.outcome = exitCode === 0 ? 'passed' : 'failed';
    return { events: [...events, end], lines };
  }

  /** The unterminated line so far, which the reader of the rest of the stream takes over. */
  takeUnterminated(): string {
    return this.splitter.takeUnterminated();
  }

  private startEvent(): TestEvent[] {
    if (this.started) return [];
    this.started = true;
    return [{ type: 'run-start', name: this.runName, atMs: this.clock.now() }];
  }
}
