// The bare system handle-table call on a worker thread, once per message: what the OS call alone does
// to the thread that waits for it. Under Wine every thread's waits and timers go through one wineserver,
// which stops answering them while it builds a big table for another thread; on Windows this is ~0.
import { parentPort } from 'node:worker_threads';
import { SystemTables } from '../native/win32/system-tables.js';

const port = parentPort!;
const tables = new SystemTables();
port.on('message', (message: 'read' | 'close') => {
  if (message === 'close') {
    tables.dispose();
    port.close();
    return;
  }
  port.postMessage(tables.rawHandleTableBytes());
});
