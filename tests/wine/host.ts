// The one place the suite decides where its Windows runs: natively when vitest itself runs on Windows,
// else under Wine. Tests skip what Wine cannot show with `it.skipIf(underWine)`.
import { nativeHost } from './native-host.js';
import { wineHost } from './wine-host.js';
import type { WindowsHost } from './windows-host.js';

export function pickWindowsHost(platform: NodeJS.Platform): WindowsHost {
  return platform === 'win32' ? nativeHost : wineHost;
}

export const host = pickWindowsHost(process.platform);

/** True when the suite's Windows is Wine: tests of what only real Windows does are skipped, with the reason in their name. */
export const underWine = host.kind === 'wine';

/** A path as the suite's Windows processes spell it. */
export const winPath = (path: string): string => host.toWindows(path);
