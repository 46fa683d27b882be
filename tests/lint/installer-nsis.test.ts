// The installer's Explorer entry (assets/installer.nsh) compiled by makensis in the context
// electron-builder gives it: Unicode, APP_EXECUTABLE_FILENAME defined, customInstall in an install
// section and customUnInstall in the uninstaller, warnings as errors. electron-builder itself cannot run
// here (it downloads Electron), so this is the proof the include parses and its macros are the ones
// electron-builder calls. What it writes to the registry is proven only by installing on Windows.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

const INCLUDE = join(REPO_ROOT, 'assets', 'installer.nsh');
const makensis = spawnSync('makensis', ['-VERSION'], { encoding: 'utf8' }).status === 0;
const scratch = mkdtempSync(join(tmpdir(), 'hw-nsis-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A minimal installer shaped like electron-builder's, including `include` and calling its macros where electron-builder does. */
function harness(include: string): string {
  return `Unicode true
RequestExecutionLevel user
SilentInstall silent
OutFile "${join(scratch, 'harness.exe')}"
InstallDir "$LOCALAPPDATA\\Programs\\holdwatch"
!define APP_EXECUTABLE_FILENAME "holdwatch.exe"
!include "${include}"
Section "install"
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  !insertmacro customInstall
  WriteUninstaller "$INSTDIR\\Uninstall holdwatch.exe"
SectionEnd
Section "Uninstall"
  SetShellVarContext current
  !insertmacro customUnInstall
SectionEnd
`;
}

function compile(include: string): { status: number | null; output: string } {
  const script = join(scratch, 'harness.nsi');
  writeFileSync(script, harness(include));
  const result = spawnSync('makensis', ['-WX', '-V2', '-INPUTCHARSET', 'UTF8', script], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('assets/installer.nsh', () => {
  it('is what electron-builder.yml includes in the NSIS installer', () => {
    expect(readFileSync(join(REPO_ROOT, 'electron-builder.yml'), 'utf8')).toMatch(/^nsis:\n(?: {2}.*\n)*? {2}include: assets\/installer\.nsh$/m);
  });

  it('registers the folder and background verbs with the quoted exe and "%V", and removes both', () => {
    const text = readFileSync(INCLUDE, 'utf8');
    for (const key of ['Software\\Classes\\Directory\\shell\\holdwatch', 'Software\\Classes\\Directory\\Background\\shell\\holdwatch'])
      expect(text).toContain(`"${key}"`);
    expect(text).toContain(`'"$INSTDIR\\\${APP_EXECUTABLE_FILENAME}" "%V"'`);
    expect(text).toContain('Which process holds this folder? — holdwatch');
    expect(text.match(/^\s*DeleteRegKey SHCTX/gm)).toHaveLength(2);
  });

  it.skipIf(!makensis)(
    'compiles with makensis, warnings as errors, in electron-builder’s context (skipped where makensis is not installed: apt-get install nsis)',
    () => {
      const ok = compile(INCLUDE);
      expect(ok.output).not.toMatch(/warning|error/i);
      expect([ok.status, existsSync(join(scratch, 'harness.exe'))]).toEqual([0, true]);
      // The same harness refuses an include whose macros are misnamed: the check can fail.
      const broken = join(scratch, 'broken.nsh');
      writeFileSync(broken, readFileSync(INCLUDE, 'utf8').replace('!macro customUnInstall', '!macro customRemove'));
      expect(compile(broken).status).not.toBe(0);
    },
  );
});
