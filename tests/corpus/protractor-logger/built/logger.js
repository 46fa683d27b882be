// The part of protractor's Logger (MIT, angular/protractor lib/logger.ts) that leaks: setWrite opens
// the log file for each FILE configuration and never closes the fd it had.
'use strict';
const fs = require('fs');
const path = require('path');

const LogLevel = { ERROR: 0, WARN: 1, INFO: 2, DEBUG: 3 };
const WriteTo = { CONSOLE: 0, FILE: 1, BOTH: 2, NONE: 3 };
const LEVEL_LETTER = ['E', 'W', 'I', 'D'];
let logFile = 'protractor.log';

class Logger {
  static setWrite(writeTo, optLogFile) {
    if (optLogFile) logFile = optLogFile;
    Logger.writeTo = writeTo;
    if (writeTo === WriteTo.FILE || writeTo === WriteTo.BOTH) {
      Logger.fd = fs.openSync(path.resolve(logFile), 'a');
      Logger.firstWrite = false;
    }
  }

  constructor(id) {
    this.id = id;
  }

  debug(...msgs) {
    this.log_(LogLevel.DEBUG, msgs);
  }

  info(...msgs) {
    this.log_(LogLevel.INFO, msgs);
  }

  warn(...msgs) {
    this.log_(LogLevel.WARN, msgs);
  }

  error(...msgs) {
    this.log_(LogLevel.ERROR, msgs);
  }

  log_(level, msgs) {
    if (level > Logger.logLevel || Logger.writeTo !== WriteTo.FILE) return;
    if (!Logger.firstWrite) {
      fs.writeSync(Logger.fd, '\n');
      Logger.firstWrite = true;
    }
    const text = msgs.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(' ');
    fs.writeSync(Logger.fd, `${LEVEL_LETTER[level]}/${this.id} - ${text}\n`);
  }
}
Logger.logLevel = LogLevel.INFO;
Logger.writeTo = WriteTo.CONSOLE;
Logger.fd = undefined;
Logger.firstWrite = false;

module.exports = { Logger, LogLevel, WriteTo };
