// The bundled probes (pytest plugin, node reporter, bats formatter) append one JSON event per line
// to the file named by HOLDWATCH_EVENTS. This reads that file's content as it grows: every line is
// validated (a test process can write anything there), bad lines are counted, never trusted.
import type { ParsedOutput, RunnerStreamParser, TestEvent } from './events.js';
import { toTestEvent } from './events.js';
import { LineSplitter } from './line-splitter.js';

export class ProbeEventsParser implements RunnerStreamParser {
  private readonly splitter = new LineSplitter();
  /** Lines that were not a valid event (a torn write is finished by the next chunk, so it is not one). */
  rejectedLines = 0;

  push(chunk: string): ParsedOutput {
    return { events: this.decode(this.splitter.push(chunk)), lines: [] };
  }

  /** The file is only read, never a run's output: the exit code changes nothing here. */
  end(): ParsedOutput {
    return { events: this.decode(this.splitter.end()), lines: [] };
  }

  private decode(lines: string[]): TestEvent[] {
    const events: TestEvent[] = [];
    for (const line of lines) {
      if (line.trim().length === 0) continue;
      let event: TestEvent | undefined;
      try {
        event = toTestEvent(JSON.parse(line));
      } catch {
        event = undefined;
      }
      if (event) events.push(event);
      else this.rejectedLines++;
    }
    return events;
  }
}
