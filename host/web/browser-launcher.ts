// The page `holdwatch ui` opens the browser on. The tokened URL may not go on a command line: every
// local user can read /proc/<pid>/cmdline (xdg-open's, then the browser's), and the token lets its
// holder run commands as this user. So the browser is given the path of a file only this user can
// read (0600, in a 0700 dir of the data dir), and that file sends it on to the tokened URL. The file
// lives as long as the server, whose close() removes it.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, writePrivateFile } from '../private-files.js';

export interface BrowserLauncher {
  /** The file to open in a browser; its URL carries no secret. */
  path: string;
  remove(): void;
}

export function writeBrowserLauncher(dataDir: string, tokenedUrl: string): BrowserLauncher {
  const dir = join(dataDir, 'ui');
  makePrivateDir(dir, { holdwatchs: true });
  const path = join(dir, `open-${process.pid}.html`);
  // 'wx': a file someone else planted under that name is not written through (nor followed, as a link).
  rmSync(path, { force: true });
  writePrivateFile(path, launcherPage(tokenedUrl), 'wx');
  return { path, remove: () => rmSync(path, { force: true }) };
}

function launcherPage(url: string): string {
  const attribute = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return [
    '<!doctype html>',
    '<meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="0; url=${attribute}">`,
    '<title>holdwatch ui</title>',
    '<p>Opening holdwatch ui…</p>',
    '',
  ].join('\n');
}
