// The Python runners' probes (pytest plugin, unittest hook) live on PYTHONPATH, prepended so the
// user's entries are kept; pytest loads its plugin with -p from PYTEST_ADDOPTS, and the stack probe's
// sitecustomize installs the unittest hook.
import { basename, delimiter } from 'node:path';
import type { CommandLine } from './command-line.js';
import type { RunnerContext } from './runner.js';

export function pythonRunnersOnPath({ base, probesDir }: RunnerContext): NodeJS.ProcessEnv {
  return { PYTHONPATH: [probesDir + 'python-runners', ...(base.PYTHONPATH ? [base.PYTHONPATH] : [])].join(delimiter) };
}

export function pytestPlugin({ base }: RunnerContext): NodeJS.ProcessEnv {
  if (/(^|\s)-p\s*holdwatch_pytest\b/.test(base.PYTEST_ADDOPTS ?? '')) return {};
  return { PYTEST_ADDOPTS: [base.PYTEST_ADDOPTS, '-p holdwatch_pytest'].filter(Boolean).join(' ') };
}

/** `python -m <module>` (python3, python3.12, pypy3, py), or the module's own script (`pytest`). */
export function runsPythonModule(module: string, scripts: readonly string[]): (line: CommandLine) => boolean {
  return ({ name, args }) =>
    scripts.includes(name) || (/^(python[\d.]*|pypy[\d.]*|py)$/.test(name) && args.some((a, i) => a === '-m' && basename(args[i + 1] ?? '') === module));
}
