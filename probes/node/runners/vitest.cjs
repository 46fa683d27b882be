'use strict';
// Which vitest test is running in this process, from inside it: vitest runs a test file in a worker
// (a forked process by default) whose state object, `globalThis.__vitest_worker__`, names the task
// running now in `current`: the test from before its beforeEach hooks to after its afterEach hooks,
// then its suite again. vitest provides that state (per test file) with Object.defineProperty on
// globalThis, after the probe has started: that one call is watched for, so the state is followed from
// its first test on (and looked for again at each open, should the watch have missed it); once found,
// `current` becomes an accessor that sees every change from then on. Names are the test file's path
// from the project's root, the suites and the test, joined with ' > '. Positions in a stack are those of vite's transformed code, mapped
// back through the inline source map vite left in each module. Nothing here may throw into the test process.
const path = require('node:path');
const { SourceMap } = require('node:module');
const { guard } = require('./shared.cjs');

const WORKER_STATE = '__vitest_worker__';

/**
 * Starts tracking; `onStart(name)` and `onEnd(name, outcome)` are called in order. Returns the current
 * test's getter and a mapper of stack positions.
 */
function trackVitestTests(onStart, onEnd, onScopeEnd) {
  let followed = null;
  let running = null; // { task, name }
  // The suite or file whose hooks (or import) run now, outside any test; null between files.
  let scopeTask = null;
  let rootOf = () => '';
  const scopeOf = (task) => ({ kind: task.file === task ? 'file' : 'suite', name: nameOf(task, rootOf()) });
  // vitest sets `current` back to the parent suite once a suite's afterAll hooks have run, and to the
  // next file (or nothing) once a file's have: every scope left on the way up has ended.
  const enterScope = (next) => {
    const stays = new Set();
    for (let t = next; t; t = parentOf(t)) stays.add(t);
    for (let t = scopeTask; t && !stays.has(t); t = parentOf(t)) {
      const { kind, name } = scopeOf(t);
      guard(() => onScopeEnd(name, kind));
    }
    scopeTask = next ?? null;
  };
  const begin = (task, root) => {
    running = { task, name: nameOf(task, root) };
    guard(() => onStart(running.name));
  };
  const finish = () => {
    if (running === null) return;
    const { task, name } = running;
    running = null;
    const state = task.result?.state;
    guard(() => onEnd(name, state === 'fail' ? 'failed' : state === 'skip' ? 'skipped' : 'passed'));
  };
  const follow = (workerState) => {
    followed = workerState;
    finish();
    let value = workerState.current;
    const root = () => workerState.config?.root ?? '';
    rootOf = root;
    Object.defineProperty(workerState, 'current', {
      configurable: true,
      enumerable: true,
      get: () => value,
      set: (next) => {
        value = next;
        if (running !== null && running.task !== next) finish();
        if (next?.type === 'test') {
          if (running === null) begin(next, root());
        } else enterScope(next);
      },
    });
    if (value?.type === 'test') begin(value, root());
    else if (value) scopeTask = value;
  };
  const currentTest = () => {
    const workerState = globalThis[WORKER_STATE];
    if (workerState && workerState !== followed && typeof workerState === 'object') guard(() => follow(workerState));
    return running === null ? null : running.name;
  };
  watchStateProvided(currentTest);
  const currentScope = () => {
    currentTest(); // follows the worker's state if it has come since
    return scopeTask === null ? { kind: 'session', name: 'vitest worker' } : scopeOf(scopeTask);
  };
  return { currentTest, currentScope, mapPosition: sourceMapper() };
}

/** The suite a task belongs to, else its file; null for a file. */
function parentOf(task) {
  return task.suite ?? (task.file && task.file !== task ? task.file : null);
}

/** Calls `onProvided` right after vitest defines its worker state on globalThis. */
function watchStateProvided(onProvided) {
  const defineProperty = Object.defineProperty;
  Object.defineProperty = function defineProperty_(target, key) {
    const defined = Reflect.apply(defineProperty, this, arguments);
    if (key === WORKER_STATE && target === globalThis) guard(onProvided);
    return defined;
  };
  defineProperty(Object.defineProperty, 'name', { value: 'defineProperty' });
}

const INLINE_MAP = 'sourceMappingURL=data:application/json';

/** Maps (file, line, column) of a module vite transformed to the source's, through its inline map; null when unmapped. */
function sourceMapper() {
  const maps = new WeakMap(); // module node -> SourceMap, or null
  const mapOf = (node) => {
    if (!maps.has(node)) {
      let map = null;
      const code = typeof node.meta?.code === 'string' ? node.meta.code : '';
      const at = code.lastIndexOf(INLINE_MAP);
      if (at >= 0) {
        try {
          const base64 = code.slice(code.indexOf(',', at) + 1).split('\n')[0];
          map = new SourceMap(JSON.parse(Buffer.from(base64, 'base64').toString('utf8')));
        } catch {
          map = null;
        }
      }
      maps.set(node, map);
    }
    return maps.get(node);
  };
  return (file, line, column) => {
    const modules = globalThis[WORKER_STATE]?.evaluatedModules;
    const node = modules?.getModuleById?.(file) ?? modules?.fileToModulesMap?.get(file)?.values().next().value;
    const entry = node ? mapOf(node)?.findEntry(line - 1, (column ?? 1) - 1) : undefined;
    return entry && typeof entry.originalLine === 'number' ? { line: entry.originalLine + 1, column: entry.originalColumn + 1 } : null;
  };
}

function nameOf(task, root) {
  const names = [];
  for (let t = task; t && t.type !== 'file' && t !== t.file; t = t.suite) if (t.name) names.unshift(String(t.name));
  const file = task.file?.filepath ? path.relative(root, task.file.filepath).split(path.sep).join('/') : '';
  return [file, ...names].filter(Boolean).join(' > ');
}

module.exports = { track: trackVitestTests, writesTimeline: true };
