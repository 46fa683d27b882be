// holdwatch's reporter for Node's test runner: writes the run's test timeline as JSON lines to the
// file named by HOLDWATCH_EVENTS, in the shape of core/runners/events.ts. It prints nothing, so it
// is meant as a second reporter next to the one you read:
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//               --test-reporter=<this file> --test-reporter-destination=stdout
// Live times come from `test:dequeue` (a test starts executing) and `test:complete` (it finished,
// hooks included), which Node emits in execution order; `test:start`/`test:pass`/`test:fail` come
// in declaration order after the fact and are used only by Node versions without the former.
// A failing before/after hook is reported as outcome `error` (Node's failureType `hookFailed`).
// The reporter never throws into the run: after the first write error it stops writing.
// Without HOLDWATCH_EVENTS (added by hand, not by `holdwatch run`) it announces the run to a running
// holdwatch instead (../holdwatch-announce.mjs); this process, the test runner, is the run's root.
// A file that declares no test is itself one test, named by its path from the working directory
// (what the Node preload calls it inside that file's process); it is written when it completes,
// started when it was dequeued. A file with tests is not a test of ours.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { openEventsFile } from '../holdwatch-announce.mjs';

function openEvents(path) {
  return openEventsFile(path, () => ({ pid: process.pid, argv: [process.execPath, ...process.execArgv, ...process.argv.slice(1)], runner: 'node --test' }));
}

function outcomeOf(data) {
  if (data.skip !== undefined && data.skip !== false) return 'skipped';
  if (data.todo !== undefined && data.todo !== false) return 'skipped';
  const error = data.details?.error;
  if (!error && data.details?.passed !== false) return 'passed';
  return error?.failureType === 'hookFailed' ? 'error' : 'failed';
}

function detailOf(data) {
  const error = data.details?.error;
  const message = error?.cause?.message ?? error?.message;
  if (typeof message !== 'string') return undefined;
  return message
    .split('\n')
    .find((l) => l.trim().length > 0)
    ?.trim()
    .slice(0, 500);
}

/** The reporter's state and its handling of one event of Node's TestsStream; `end` writes the run's end. */
function timelineWriter(events) {
  const stacks = new Map(); // file -> names by nesting level
  let live = false;
  let failed = false;
  // `<file> > <suite> > <test>`: node --test nests tests by file, and the Node preload names them so too.
  const inFile = (data, names) => [...(data.file ? [fileName(data.file)] : []), ...names].join(' > ');
  const fullName = (data) => {
    const stack = stacks.get(data.file ?? '') ?? [];
    return inFile(data, [...stack.slice(0, data.nesting ?? 0), data.name]);
  };
  const began = (data) => {
    const stack = stacks.get(data.file ?? '') ?? [];
    stack.length = data.nesting ?? 0;
    stack.push(data.name);
    stacks.set(data.file ?? '', stack);
    events.emit({ type: 'test-start', name: inFile(data, stack) });
  };
  const ended = (data, name = fullName(data)) => {
    const outcome = outcomeOf(data);
    if (outcome === 'failed' || outcome === 'error') failed = true;
    const detail = outcome === 'failed' || outcome === 'error' ? detailOf(data) : undefined;
    events.emit({ type: 'test-end', name, outcome, ...(detail ? { detail } : {}) });
  };
  const fileStartedAtMs = new Map(); // file -> when its first event came
  const filesWithTests = new Set();
  const filesReported = new Set();
  const fileEvent = (type, data) => {
    if (!fileStartedAtMs.has(data.file)) fileStartedAtMs.set(data.file, Date.now());
    const done = type === 'test:complete' || (!live && (type === 'test:pass' || type === 'test:fail'));
    if (!done || filesWithTests.has(data.file) || filesReported.has(data.file)) return;
    filesReported.add(data.file);
    const name = fileName(data.file);
    events.emit({ type: 'test-start', name, atMs: fileStartedAtMs.get(data.file) });
    ended(data, name);
  };
  const onEvent = ({ type, data }) => {
    if (!data || typeof data.name !== 'string') return;
    // In --test mode each file is itself reported as a test named by its path: absolute up to
    // Node 22, relative to the working directory from Node 24.
    if (data.file && (data.name === data.file || resolve(data.name) === data.file)) {
      if (type === 'test:dequeue') live = true;
      fileEvent(type, data);
      return;
    }
    if (data.file) filesWithTests.add(data.file);
    if (type === 'test:dequeue') {
      live = true;
      began(data);
    } else if (type === 'test:complete') {
      ended(data);
    } else if (!live && type === 'test:start') {
      began(data);
    } else if (!live && (type === 'test:pass' || type === 'test:fail')) {
      ended(data);
    }
  };
  const end = () => events.emit({ type: 'run-end', name: 'node --test', outcome: failed ? 'failed' : 'passed' });
  return { onEvent, end };
}

/**
 * A Transform that passes nothing on, not an async generator: Node pipes every event of the run to each
 * reporter, and a generator pays a promise round trip per event, which a run of short tests multiplies.
 */
function holdwatchReporter() {
  const events = openEvents(process.env.HOLDWATCH_EVENTS);
  events.emit({ type: 'run-start', name: 'node --test' });
  const writer = timelineWriter(events);
  return new Transform({
    writableObjectMode: true,
    transform(event, _encoding, callback) {
      try {
        writer.onEvent(event);
      } catch {
        // a malformed event must not stop the run's reporting
      }
      callback();
    },
    flush(callback) {
      writer.end();
      events.close();
      callback();
    },
    destroy(error, callback) {
      events.close();
      callback(error);
    },
  });
}

export default holdwatchReporter();

/**
 * A test file by its path from the working directory, `/`-separated; one outside it by its whole path.
 * The Node preload names it the same way (probes/node/runners/index.cjs).
 */
function fileName(file) {
  const fromCwd = relative(process.cwd(), file);
  return (fromCwd.startsWith('..') || isAbsolute(fromCwd) ? file : fromCwd).split(sep).join('/');
}
