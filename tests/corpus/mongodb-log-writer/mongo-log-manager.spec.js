// mongodb-js/devtools-shared's packages/mongodb-log-writer/src/mongo-log-manager.spec.ts (Apache-2.0)
// as it was before 693a608d, its first three tests in plain JavaScript, `expect` written as `assert`.
'use strict';
const { MongoLogManager } = require('./lib/mongo-log-manager');
const { once } = require('events');
const { promises: fs } = require('fs');
const path = require('path');
const os = require('os');
const assert = require('assert');

describe('MongoLogManager', function () {
  let directory;
  const onwarn = () => {};
  const onerror = () => {};
  const retentionDays = 30;

  beforeEach(async function () {
    directory = path.join(os.tmpdir(), `log-writer-test-${Math.random()}-${Date.now()}`);
    await fs.mkdir(directory, { recursive: true });
  });

  afterEach(async function () {
    await fs.rm(directory, { recursive: true });
  });

  it('constructor throws with invalid prefixes', function () {
    assert.throws(() => new MongoLogManager({ directory, retentionDays, prefix: '%asdabs/', onwarn, onerror }));
    assert.doesNotThrow(() => new MongoLogManager({ directory, retentionDays, prefix: 'abc_', onwarn, onerror }));
  });

  it('allows creating and writing to log files', async function () {
    const manager = new MongoLogManager({ directory, retentionDays, onwarn, onerror });
    const writer = await manager.createLogWriter();
    assert.notStrictEqual(path.relative(directory, writer.logFilePath)[0], '.');
    writer.info('component', 12345, 'context', 'message');
    writer.end();
    await once(writer._target, 'finish');
    const log = (await fs.readFile(writer.logFilePath, 'utf8')).split('\n').filter(Boolean);
    assert.strictEqual(log.length, 1);
  });

  it('can take a custom prefix for log files', async function () {
    const manager = new MongoLogManager({ directory, retentionDays, prefix: 'custom_', onwarn, onerror });
    const writer = await manager.createLogWriter();
    assert.match(writer.logFilePath, /custom_/);
  });
});
