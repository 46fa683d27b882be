// Detox's src/logger/DetoxLogger.test.js (MIT, wix/Detox) at 9c8d4bb8b^ (the parent of the fix, when the
// suite was skipped on Windows: "TODO: investigate why the test fails"): its setup and teardown as they
// were, and two of its "main functionality" tests. fs-extra's removeSync is fs.rmSync with force. The
// original waited 10 ms for the streams to flush and retried each test twice (jest.retryTimes(2)); here
// it waits 100 ms, without retries, so a slow first write cannot turn the run into another one.
jest.useFakeTimers({
  doNotFake: ['setTimeout', 'clearTimeout'],
  now: new Date(2023, 0, 1),
});

const fs = require('fs');

const sleep = require('../utils/sleep');
const tempfile = require('../utils/tempfile');

describe('DetoxLogger', () => {
  let DetoxLogger;
  let jsonlLogPath;
  let plainLogPath;
  let safetyTimeout;

  function logger(opts = {}) {
    const { level = 'trace', overrideConsole = false, options } = opts;
    DetoxLogger = require('./DetoxLogger');

    return new DetoxLogger({
      file: jsonlLogPath,
      userConfig: {
        level,
        overrideConsole,
        options: {
          ...DetoxLogger.defaultOptions({ level }),
          colors: false,
          out: fs.createWriteStream(plainLogPath),
          ...options,
        },
      },
    });
  }

  let _env;

  function setupSuite() {
    _env = process.env;
    process.env = { ..._env, FORCE_COLOR: '0' };
    jsonlLogPath = tempfile('.jsonl');
    plainLogPath = tempfile('.log');
    safetyTimeout = null;
  }

  function teardownSuite() {
    process.env = _env;
    fs.rmSync(jsonlLogPath, { force: true });
    fs.rmSync(plainLogPath, { force: true });
  }

  async function jsonl() {
    safetyTimeout = safetyTimeout || sleep(500);
    await safetyTimeout;
    const contents = fs.readFileSync(jsonlLogPath, 'utf8');
    return contents
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  }

  async function txt() {
    safetyTimeout = safetyTimeout || sleep(500);
    await safetyTimeout;
    const contents = fs.readFileSync(plainLogPath, 'utf8');
    return contents.trim().replace(/detox\[\d+\]/g, 'detox[PID]');
  }

  describe('- main functionality -', () => {
    beforeEach(setupSuite);
    afterEach(teardownSuite);

    it('should log messages simultaneously to plain text and JSONL', async () => {
      logger().info('Hello, world!');

      await expect(txt()).resolves.toBe(`00:00:00.000 detox[PID] i  Hello, world!`);
      await expect(jsonl()).resolves.toEqual([expect.objectContaining({ level: 30, msg: 'Hello, world!', name: 'detox', pid: process.pid, v: 0 })]);
    });

    it('should hide messages with a lower log level in the plain output', async () => {
      logger({ level: 'warn' }).info('Hello, world!');

      await expect(txt()).resolves.toBe('');
      await expect(jsonl()).resolves.toEqual([expect.objectContaining({ msg: 'Hello, world!', level: 30 })]);
    });
  });
});
