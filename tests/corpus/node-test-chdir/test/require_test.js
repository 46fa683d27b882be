const assert = require('assert');
const { mkdir, rm, writeFile } = require('fs/promises');
const { tmpdir } = require('os');
const { dirname, join } = require('path');
const { after, before, test } = require('node:test');
const { Neutrino } = require('../src');

const cwd = process.cwd();
const outputFile = async (file, data) => {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, data);
};
const remove = (path) => rm(path, { recursive: true, force: true });
const rootPath = join(tmpdir(), 'test-module');
const rootMiddlewarePath = join(rootPath, 'middleware.js');
const errorMiddlewarePath = join(rootPath, 'errorMiddleware.js');
const modulePath = join(rootPath, 'node_modules', 'alpha');
const moduleMiddlewarePath = join(modulePath, 'index.js');

before(async () => {
  await Promise.all([
    outputFile(rootMiddlewarePath, 'module.exports = () => "root"'),
    outputFile(errorMiddlewarePath, '[;'),
    outputFile(moduleMiddlewarePath, 'module.exports = () => "alpha"'),
  ]);
  process.chdir(rootPath);
});

after(async () => {
  await remove(rootPath);
  process.chdir(cwd);
});

test('requires middleware relative to root', () => {
  const api = Neutrino();

  api.use('middleware');
});

test('requires middleware from root/node_modules', () => {
  const api = Neutrino();

  api.use('alpha');
});

test('forks with error middleware contains error', () => {
  const api = Neutrino();

  assert.throws(() => api.use('errorMiddleware'));
});

test('throws if middleware cannot be found', () => {
  const api = Neutrino();

  assert.throws(() => api.use('nonExistent'));
});
