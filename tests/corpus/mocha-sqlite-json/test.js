#!/usr/bin/env node

const assert = require('assert'),
  fs = require('fs'),
  os = require('os'),
  path = require('path'),
  sqlite = require('better-sqlite3');

const SJ = require('./');

// The suite's ./tmp, in the temp dir.
const tmp = path.join(os.tmpdir(), 'tmp');

const data = [
  { name: 'Washington', id: 1 },
  { name: 'Adams', id: 2 },
  { name: 'Jefferson', id: 3 },
  { name: 'Madison', id: 4 },
  { name: 'Monroe', id: 5 },
  { name: 'Adams', id: 6 },
];

describe('sqliteToJson', function () {
  before(function (done) {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });

    const db = new sqlite(path.join(tmp, 'tmp.db'));
    this.sqlitejson = SJ(db);

    db.exec('CREATE TABLE presidents (name TEXT, id INT)');
    const stmt = db.prepare('INSERT INTO presidents VALUES (?, ?)');

    data.forEach((row) => stmt.run(row.name, row.id));

    done(null);
  });

  it('accepts a filename', function () {
    // Kept on the suite's context, so the collector cannot close it before the after hook runs.
    this.sj = SJ(path.join(tmp, 'foo.db'));
    assert.ok(this.sj instanceof SJ);
  });

  it('calls back with all tables in the specified database', function (done) {
    this.sqlitejson.tables(function (e, result) {
      assert.deepStrictEqual(result, ['presidents']);
      done(e);
    });
  });

  it('exports a table to JSON', function (done) {
    this.sqlitejson.json({ table: 'presidents' }, function (err, json) {
      if (!err) assert.deepStrictEqual(JSON.parse(json), data);
      done(err);
    });
  });

  it('filters with a where option', function (done) {
    const desired = data.filter(function (i) {
      return i.name == 'Adams';
    }, {});
    this.sqlitejson.json({ table: 'presidents', where: "name = 'Adams'" }, function (err, json) {
      if (!err) assert.deepStrictEqual(json, JSON.stringify(desired));
      done(err);
    });
  });

  after(function () {
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
