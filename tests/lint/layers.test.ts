// The layer rule in eslint.config.js, checked against the edges it exists to refuse (and a few it must
// allow): a file of each layer is linted as if it stood in the repo, by ESLint itself.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

// The files linted here exist only as text, in no tsconfig: the type-aware rules are switched off
// for them (the layer rules need no types).
const eslint = new ESLint({ cwd: REPO_ROOT, overrideConfig: tseslint.configs.disableTypeChecked });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO_ROOT}${filePath}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-properties')
    .map((m) => m.message);
}

describe('the layer rule', () => {
  it.each([
    ['electron/x.ts', "import { main } from '../cli/main.js';\nvoid main;\n", 'electron imports host and below, never cli'],
    ['cli/x.ts', "import { x } from '../electron/main.js';\nvoid x;\n", 'cli imports host and below, never electron'],
    ['cli/x.ts', "import { openHolderSource } from '../native/index.js';\nvoid openHolderSource;\n", 'native only through host'],
    ['renderer/store/x.ts', "import { HostSession } from '../../host/session/host-session.js';\nvoid HostSession;\n", 'renderer speaks only the contract'],
    ['renderer/store/x.ts', "import { Watcher } from '../../core/watch.js';\nvoid Watcher;\n", 'renderer speaks only the contract'],
    ['core/x.ts', "import { openHolderSource } from '../native/index.js';\nvoid openHolderSource;\n", 'core imports only contract'],
    ['native/x.ts', "import { dataDirOf } from '../host/data-dir.js';\nvoid dataDirOf;\n", 'native imports only core and contract'],
    ['host/x.ts', "import { main } from '../cli/main.js';\nvoid main;\n", 'host imports native, core and contract'],
    ['contract/x.ts', "import { Watcher } from '../core/watch.js';\nvoid Watcher;\n", 'contract imports nothing of ours'],
    ['probes/x.mjs', "import { Watcher } from '../core/watch.js';\nvoid Watcher;\n", 'probes run inside test processes'],
    ['probes/node/x.cjs', "const { x } = require('../../core/watch.js');\nvoid x;\n", 'probes run inside test processes'],
    ['host/x.ts', 'process.chdir("/");\n', 'the front end (cli, electron) does this'],
    ['host/x.ts', 'process.stdout.write("x");\n', 'the front end (cli, electron) does this'],
  ])('refuses %s importing upward or across: %j', async (file, code, message) => {
    const errors = await layerErrors(file, code);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toContain(message);
  });

  it.each([
    ['electron/x.ts', "import { HostSession } from '../host/session/host-session.js';\nvoid HostSession;\n"],
    ['cli/x.ts', "import { HostSession } from '../host/session/host-session.js';\nvoid HostSession;\n"],
    ['renderer/store/x.ts', "import { holderKey } from '../../contract/identity.js';\nvoid holderKey;\n"],
    ['core/x.ts', "import { holderKey } from '../contract/identity.js';\nvoid holderKey;\n"],
    ['host/x.ts', "import { openHolderSource } from '../native/index.js';\nvoid openHolderSource;\n"],
    ['core/x.test.ts', "import { FIXTURES } from '../tests/fixtures/runners/feed.js';\nvoid FIXTURES;\n"],
  ])('allows %s: %j', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
