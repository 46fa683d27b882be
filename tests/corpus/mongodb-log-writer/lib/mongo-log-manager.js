// The part of MongoLogManager (Apache-2.0, mongodb-js/devtools-shared packages/mongodb-log-writer)
// that leaks: createLogWriter opens a write stream on a new file in the log directory and hands it to
// the writer; only the writer's end() closes it.
'use strict';
const { createWriteStream } = require('fs');
const { once } = require('events');
const path = require('path');
const { randomBytes } = require('crypto');

class MongoLogWriter {
  constructor(logId, logFilePath, target) {
    this.logId = logId;
    this.logFilePath = logFilePath;
    this._target = target;
  }

  info(component, id, context, message) {
    this._target.write(JSON.stringify({ t: { $date: new Date().toISOString() }, s: 'I', c: component, id, ctx: context, msg: message }) + '\n');
  }

  end() {
    this._target.end();
  }
}

class MongoLogManager {
  constructor(options) {
    if (options.prefix !== undefined && !/^[a-z0-9_]+$/i.test(options.prefix)) throw new Error('Prefix must only contain letters, numbers, and underscores');
    this._options = options;
    this.prefix = options.prefix ?? '';
  }

  async createLogWriter() {
    const logId = randomBytes(12).toString('hex');
    const logFilePath = path.join(this._options.directory, `${this.prefix}${logId}_log`);
    const stream = createWriteStream(logFilePath, { mode: 0o600 });
    await once(stream, 'ready');
    return new MongoLogWriter(logId, logFilePath, stream);
  }
}

module.exports = { MongoLogManager };
