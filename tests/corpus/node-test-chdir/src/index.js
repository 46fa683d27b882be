// What Neutrino's `use(name)` does with a middleware name: require it relative to the project root (the
// process's working directory), else from the root's node_modules, and call it with the API.
const { join } = require('path');

function requireFromRoot(name) {
  const root = process.cwd();
  try {
    return require(join(root, name));
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND') throw err;
    return require(join(root, 'node_modules', name));
  }
}

function Neutrino() {
  const api = {
    use(name) {
      return requireFromRoot(name)(api);
    },
  };
  return api;
}

module.exports = { Neutrino };
