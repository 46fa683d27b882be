// protractor's spec/unit/logger_test.js (MIT, angular/protractor), its jasmine suite run by node:test:
// the same hooks in the same order, `expect` as `assert`, trimmed to three describe blocks.
'use strict';
const { describe, it, beforeEach, afterEach } = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { LogLevel, Logger, WriteTo } = require('../../built/logger');

describe('the logger', function () {
  const logFile = path.resolve(os.tmpdir(), 'logger_test.log');
  const logger = new Logger('FooBar');

  beforeEach(function () {
    try {
      fs.unlinkSync(path.resolve(logFile));
    } catch (e) {}
  });

  afterEach(function () {
    try {
      fs.unlinkSync(path.resolve(logFile));
    } catch (e) {}
  });

  describe('log strings to file', function () {
    beforeEach(function () {
      Logger.setWrite(WriteTo.FILE, logFile);
    });

    const writeString = function () {
      logger.debug('hello debug');
      logger.info('hello info');
      logger.warn('hello warn');
      logger.error('hello error');
    };

    afterEach(function () {
      Logger.setWrite(WriteTo.CONSOLE);
      Logger.logLevel = LogLevel.DEBUG;
    });

    it('should write debug, info, warn, and error to file', function () {
      Logger.logLevel = LogLevel.DEBUG;
      writeString();
      const lines = fs.readFileSync(path.resolve(logFile)).toString().split('\n');
      assert.strictEqual(lines.length, 6);
      assert.match(lines[1], /D\/FooBar/);
    });

    it('should write warn and error to file', function () {
      Logger.logLevel = LogLevel.WARN;
      writeString();
      const lines = fs.readFileSync(path.resolve(logFile)).toString().split('\n');
      assert.strictEqual(lines.length, 4);
      assert.match(lines[1], /W\/FooBar/);
    });
  });

  describe('log json objects/array to file', function () {
    beforeEach(function () {
      Logger.setWrite(WriteTo.FILE, logFile);
    });

    afterEach(function () {
      Logger.setWrite(WriteTo.CONSOLE);
    });

    it('should write obj to file', function () {
      logger.info({ foo: 'bar' });
      const lines = fs.readFileSync(path.resolve(logFile)).toString().split('\n');
      assert.strictEqual(lines.length, 3);
      assert.match(lines[1], /\{"foo":"bar"\}/);
    });
  });

  describe('default log level is configurable', function () {
    it('should be configurable statically', function () {
      Logger.logLevel = LogLevel.WARN;
      assert.strictEqual(Logger.logLevel, LogLevel.WARN);
    });
  });
});
