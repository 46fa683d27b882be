// Picks the platform backend once, loading only that one (koffi is never loaded off Windows).
import type { HolderSource, LiveStackSource, ProcessSource } from '../core/platform.js';

export interface HolderSourceOptions {
  /** Threads for the Linux walk; a long-lived watcher uses 2, a one-shot scan 1. */
  threads?: number;
}

export async function openHolderSource(options: HolderSourceOptions = {}, platform = process.platform): Promise<HolderSource> {
  switch (platform) {
    case 'linux': {
      const { LinuxHolderSource } = await import('./linux/linux-holder-source.js');
      return new LinuxHolderSource(options);
    }
    case 'win32': {
      // Only this import loads koffi (lazily, on the first Windows call).
      const { Win32HolderSource } = await import('./win32/win32-holder-source.js');
      return new Win32HolderSource();
    }
    default:
      throw new UnsupportedPlatformError(platform);
  }
}

export async function openProcessSource(platform = process.platform): Promise<ProcessSource> {
  switch (platform) {
    case 'linux': {
      const { LinuxProcessSource } = await import('./linux/linux-process-source.js');
      return new LinuxProcessSource();
    }
    case 'win32': {
      const { Win32ProcessSource } = await import('./win32/win32-process-source.js');
      return new Win32ProcessSource();
    }
    default:
      throw new UnsupportedPlatformError(platform);
  }
}

export interface LiveStackSourceOptions {
  /** Where Windows writes minidumps (`<data dir>/dumps`); created on first use. */
  dumpsDir: string;
}

export async function openLiveStackSource(options: LiveStackSourceOptions, platform = process.platform): Promise<LiveStackSource> {
  switch (platform) {
    case 'linux': {
      const { LinuxLiveStackSource } = await import('./linux/live-stack-source.js');
      return new LinuxLiveStackSource();
    }
    case 'win32': {
      const { MinidumpSource } = await import('./win32/minidump-source.js');
      return new MinidumpSource({ dumpsDir: options.dumpsDir });
    }
    default:
      throw new UnsupportedPlatformError(platform);
  }
}

export class UnsupportedPlatformError extends Error {
  override readonly name = 'UnsupportedPlatformError';
  constructor(readonly platform: string) {
    super(`holdwatch does not support ${platform} yet (linux and win32 are supported)`);
  }
}
