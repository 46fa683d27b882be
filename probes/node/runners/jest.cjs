'use strict';
// Which jest test is running in this process, from inside it: jest-circus runs a test file's tests in
// a worker (or in the jest process itself, --runInBand). Its runner entry (jest-circus/runner) is a
// plain require; its event loop lives in the test file's sandbox. The entry is wrapped so that, once
// the sandbox's circus state exists, one more event handler joins the sandbox's list: `test_started`
// (not skipped) starts a test, `test_done` (its afterEach hooks run) ends it. Names are the describe
// blocks and the test joined with ' > ', after the test file's path from the project's root (names repeat
// across files). jest transforms the code it runs (babel-jest, ts-jest): positions in a stack are the
// transformed code's, mapped back here through the source maps jest keeps per file. Nothing here may
// throw into the test process.
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { firstLineOf, guard } = require('./shared.cjs');

const EVENT_HANDLERS = Symbol.for('EVENT_HANDLERS');
const ROOT = 'ROOT_DESCRIBE_BLOCK';

/**
 * Starts tracking when jest-circus's runner loads; `onStart(name)` and `onEnd(name, outcome, detail)`
 * are called in order. Returns the current test's getter and a mapper of stack positions.
 */
function trackJestTests(onStart, onEnd, onScopeEnd) {
  let current = null;
  let file = '';
  const runtimes = [];
  // The describe blocks running now, outermost first: their beforeAll/afterAll hooks are their scope's.
  const describes = [];
  const scopeOf = () => {
    const name = [file, ...describes.map((d) => d.name)].filter(Boolean).join(' > ');
    return { kind: describes.length > 0 ? 'suite' : 'file', name };
  };
  const handler = (event) => {
    if (event.name === 'run_describe_start' && event.describeBlock?.name !== ROOT) describes.push(event.describeBlock);
    else if (event.name === 'run_describe_finish') {
      // After the block's afterAll hooks: what its scope opened and still holds, it holds past the scope.
      const { kind, name } = scopeOf();
      if (event.describeBlock?.name !== ROOT) describes.pop();
      onScopeEnd(name, kind);
    } else if (event.name === 'test_started') {
      current = { test: event.test, name: [file, ...namesOf(event.test)].filter(Boolean).join(' > ') };
      onStart(current.name);
    } else if (event.name === 'test_done' && current !== null && current.test === event.test) {
      const { name } = current;
      current = null;
      const errors = event.test.errors ?? [];
      onEnd(name, errors.length > 0 ? 'failed' : 'passed', firstLineOf(Array.isArray(errors[0]) ? errors[0][0] : errors[0]));
    }
  };
  const guarded = (event) => guard(() => handler(event));
  const wrapAdapter = (exports) => {
    const adapter = exports.default;
    if (typeof adapter !== 'function') return;
    exports.default = function holdwatchJestAdapter(globalConfig, config, environment, runtime, testPath, ...rest) {
      guard(() => {
        file = path
          .relative(config?.rootDir ?? '', String(testPath))
          .split(path.sep)
          .join('/');
        describes.length = 0;
        if (typeof runtime?.getSourceMaps === 'function' && !runtimes.includes(runtime)) runtimes.unshift(runtime);
        joinSandboxEvents(runtime, environment, guarded);
      });
      return adapter.call(this, globalConfig, config, environment, runtime, testPath, ...rest);
    };
  };
  const load = Module._load;
  Module._load = function holdwatchLoad(request, parent, isMain) {
    const loaded = load.call(this, request, parent, isMain);
    // Loaded once per worker, by its resolved path (projectConfig.testRunner); then the hook is not needed.
    if (typeof request === 'string' && /jest-circus[\\/]build[\\/]runner\.js$/.test(request) && loaded && typeof loaded === 'object') {
      Module._load = load;
      guard(() => wrapAdapter(loaded));
    }
    return loaded;
  };
  return { currentTest: () => (current === null ? null : current.name), currentScope: scopeOf, mapPosition: sourceMapper(runtimes) };
}

/** Maps (file, line, column) of transformed code to the source's, through the runtimes' source maps; null when unmapped. */
function sourceMapper(runtimes) {
  const maps = new Map(); // source map path -> SourceMap, or null when unreadable
  const mapOf = (mapPath) => {
    if (!maps.has(mapPath)) {
      let map = null;
      try {
        map = new Module.SourceMap(JSON.parse(fs.readFileSync(mapPath, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(mapPath, map);
    }
    return maps.get(mapPath);
  };
  return (file, line, column) => {
    for (const runtime of runtimes) {
      const mapPath = runtime.getSourceMaps().get(file);
      if (typeof mapPath !== 'string') continue;
      const entry = mapOf(mapPath)?.findEntry(line - 1, (column ?? 1) - 1);
      if (entry && typeof entry.originalLine === 'number') return { line: entry.originalLine + 1, column: entry.originalColumn + 1 };
      return null;
    }
    return null;
  };
}

/** Adds `handler` to the sandbox's circus handlers as soon as jest-circus's initialiser created them. */
function joinSandboxEvents(runtime, environment, handler) {
  const requireInternal = runtime.requireInternalModule;
  if (typeof requireInternal !== 'function') return;
  runtime.requireInternalModule = function holdwatchRequireInternal(...args) {
    const loaded = requireInternal.apply(this, args);
    const handlers = environment?.global?.[EVENT_HANDLERS];
    if (Array.isArray(handlers)) {
      runtime.requireInternalModule = requireInternal;
      if (!handlers.includes(handler)) handlers.push(handler);
    }
    return loaded;
  };
}

function namesOf(test) {
  const names = [];
  for (let block = test; block; block = block.parent) if (block.name !== ROOT) names.unshift(String(block.name));
  return names;
}

module.exports = { track: trackJestTests, writesTimeline: true };
