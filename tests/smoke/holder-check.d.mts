// Types for holder-check.mjs (plain JavaScript so the smoke runs without compiling tests/).
import type { Page } from 'playwright-core';

export interface HeldDir {
  dir: string;
  fileName: string;
  pid: number;
  processName: string;
  /** Ends the holder and removes the dir. */
  stop(): Promise<void>;
}

export function startHeldDir(): Promise<HeldDir>;
export function expectHolderShown(page: Page, held: HeldDir, timeoutMs?: number): Promise<string>;
