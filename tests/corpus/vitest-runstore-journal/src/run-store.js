// A run journal in the shape of code-buddy's RunStore: one append stream per run, ended (not closed) by endRun.
import fs from 'node:fs';
import path from 'node:path';

export class RunStore {
  constructor(runsDir) {
    this.runsDir = runsDir;
    this.handles = new Map();
    this.events = new Map();
    this.nextId = 0;
  }

  startRun(objective) {
    const runId = `run_${this.nextId++}`;
    const dir = path.join(this.runsDir, runId);
    fs.mkdirSync(dir, { recursive: true });
    const ws = fs.createWriteStream(path.join(dir, 'events.jsonl'), { flags: 'a' }); // the journal's open
    this.handles.set(runId, ws);
    this.events.set(runId, []);
    this.emit(runId, 'run_start', { objective });
    return runId;
  }

  emit(runId, type, data) {
    const ws = this.handles.get(runId);
    if (!ws) return;
    const event = { ts: Date.now(), runId, type, data };
    this.events.get(runId).push(event);
    ws.write(JSON.stringify(event) + '\n');
  }

  // Resolves once what was emitted so far is written: the journal is open by then.
  flushRun(runId) {
    const ws = this.handles.get(runId);
    return new Promise((resolve) => (ws ? ws.write('', resolve) : resolve()));
  }

  getEvents(runId) {
    return this.events.get(runId) ?? [];
  }

  // end() returns at once: the last write, 'finish' and the fd's close all come later.
  endRun(runId, status) {
    this.emit(runId, 'run_end', { status });
    const ws = this.handles.get(runId);
    if (ws) {
      ws.end();
      this.handles.delete(runId);
    }
  }

  // destroy() closes only the streams still in handles: an ended run's journal is no longer there.
  dispose() {
    for (const ws of this.handles.values()) ws.destroy();
    this.handles.clear();
  }
}
