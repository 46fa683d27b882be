// Detox's src/logger/utils/BunyanLogger.js (MIT, wix/Detox) at 9c8d4bb8b^, kept to its two streams: the
// JSONL file stream (bunyan opens the file) and the plain "debug" stream the options name.
const bunyan = require('bunyan');

class BunyanLogger {
  constructor() {
    this._bunyan = bunyan.createLogger({ name: 'detox', streams: [] });
    this._debugStream = null;
    this._fileStream = null;
  }

  get logger() {
    return this._bunyan;
  }

  installDebugStream(config) {
    const out = config.options.out;
    const level = config.level;
    this._debugStream = {
      type: 'raw',
      level,
      stream: { write: (record) => out.write(`00:00:00.000 detox[${record.pid}] ${record.level >= 40 ? 'W' : 'i'}  ${record.msg}\n`) },
    };
    this._bunyan.addStream(this._debugStream);
    return this;
  }

  installFileStream(file) {
    this._fileStream = { type: 'file', path: file, level: 'trace' };
    this._bunyan.addStream(this._fileStream);
    return this;
  }
}

module.exports = BunyanLogger;
