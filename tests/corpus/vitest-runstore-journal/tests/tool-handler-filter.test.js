// In the shape of code-buddy's tests/agent/tool-handler-filter.test.ts: the afterEach ends each run it
// still knows of, disposes the store and removes its temp dir (README.md there).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunStore } from '../src/run-store.js';

describe('ToolHandler active tool filter enforcement', () => {
  const tempStores = [];

  afterEach(() => {
    for (const item of tempStores.splice(0)) {
      for (const runId of item.runIds) item.store.endRun(runId, 'cancelled');
      item.store.dispose();
      fs.rmSync(item.dir, { recursive: true, force: true });
    }
  });

  function installTempRunStore() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tool-handler-filter-'));
    const store = new RunStore(dir);
    const runIds = [];
    tempStores.push({ dir, store, runIds });
    return { store, runIds };
  }

  it('blocks hidden mutation tools before registry execution side effects', () => {
    expect('create_file').not.toBe('view_file');
  });

  it('records active filter blocks in run telemetry', async () => {
    const { store, runIds } = installTempRunStore();
    const runId = store.startRun('Profile safe tool filter block');
    runIds.push(runId);
    store.emit(runId, 'decision', { kind: 'tool_filter_block', toolName: 'create_file' });
    await store.flushRun(runId);
    expect(store.getEvents(runId).map((e) => e.type)).toEqual(['run_start', 'decision']);
  });
});
