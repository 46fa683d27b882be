// Detox's src/logger/DetoxLogger.js (MIT, wix/Detox) at 9c8d4bb8b^, the root logger only: it installs
// the file and debug streams, and nothing ever closes them (close() came with the fix).
const BunyanLogger = require('./utils/BunyanLogger');

class DetoxLogger {
  constructor(sharedConfig) {
    this._sharedConfig = sharedConfig;
    this._sharedConfig.bunyan = new BunyanLogger().installFileStream(sharedConfig.file).installDebugStream(sharedConfig.userConfig);
  }

  get level() {
    return this._sharedConfig.userConfig.level;
  }

  info(msg) {
    this._sharedConfig.bunyan.logger.info(msg);
  }

  static defaultOptions({ level }) {
    return { showLevel: level !== 'info' };
  }
}

module.exports = DetoxLogger;
