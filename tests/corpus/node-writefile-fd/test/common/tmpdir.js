'use strict';
// test/common/tmpdir.js of nodejs/node (MIT; see ../../README.md), as it was after nodejs/node#38684
// ("test: clean tmpdir on process exit"), the refresh() and exit cleanup a test uses; the NFS hints left out.

const fs = require('fs');
const path = require('path');
const { isMainThread } = require('worker_threads');

function rmSync(pathname) {
  fs.rmSync(pathname, { maxRetries: 3, recursive: true, force: true });
}

const testRoot = process.env.NODE_TEST_DIR ?
  fs.realpathSync(process.env.NODE_TEST_DIR) : path.resolve(__dirname, '..');

// Using a `.` prefixed name, which is the convention for "hidden" on POSIX,
// gets tools to ignore it by default or by simple rules, especially eslint.
const tmpdirName = '.tmp.' +
  (process.env.TEST_SERIAL_ID || process.env.TEST_THREAD_ID || '0');
const tmpPath = path.join(testRoot, tmpdirName);

let firstRefresh = true;
function refresh() {
  rmSync(tmpPath);
  fs.mkdirSync(tmpPath);

  if (firstRefresh) {
    firstRefresh = false;
    // Clean only when a test uses refresh. This allows for child processes to
    // use the tmpdir and only the parent will clean on exit.
    process.on('exit', onexit);
  }
}

function onexit() {
  // Change directory to avoid possible EBUSY
  if (isMainThread)
    process.chdir(testRoot);

  try {
    rmSync(tmpPath);
  } catch (e) {
    console.error('Can\'t clean tmpdir:', tmpPath);

    const files = fs.readdirSync(tmpPath);
    console.error('Files blocking:', files);

    console.error();
    throw e;
  }
}

module.exports = {
  path: tmpPath,
  refresh,
};
