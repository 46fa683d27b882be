// The window's size and place, remembered between sessions in Electron's userData folder.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

const DEFAULT: WindowState = { width: 1400, height: 900, maximized: false };

export function loadWindowState(userData: string): WindowState {
  try {
    const parsed = JSON.parse(readFileSync(join(userData, 'window-state.json'), 'utf8')) as Partial<WindowState>;
    const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n);
    if (!ok(parsed.width) || !ok(parsed.height)) return DEFAULT;
    return {
      width: Math.max(800, parsed.width!),
      height: Math.max(500, parsed.height!),
      maximized: parsed.maximized === true,
      ...(ok(parsed.x) && ok(parsed.y) ? { x: parsed.x!, y: parsed.y! } : {}),
    };
  } catch {
    return DEFAULT; // first start, or a damaged file
  }
}

export function saveWindowState(userData: string, state: WindowState): void {
  writeFileSync(join(userData, 'window-state.json'), JSON.stringify(state));
}
