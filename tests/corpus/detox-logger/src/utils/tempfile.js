// What the `tempfile` package (MIT, sindresorhus/tempfile 2.x) gives Detox's test: a new path in the OS
// temp dir, a random name with the extension asked for.
const crypto = require('crypto');
const os = require('os');
const path = require('path');

module.exports = (extension = '') => path.join(os.tmpdir(), crypto.randomUUID() + extension);
