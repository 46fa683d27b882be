import { describe, expect, it } from 'vitest';
import { ElevationDeclinedError } from '../remote/remote-holder-source.js';
import { elevationError, ERROR_CANCELLED, quoteWindowsArg } from './elevated-launch.js';
import { Win32Error } from './win-errors.js';

describe('elevated launch', () => {
  it('quotes arguments the way CommandLineToArgvW reads them back', () => {
    expect(quoteWindowsArg('scan-worker')).toBe('scan-worker');
    expect(quoteWindowsArg('\\\\.\\pipe\\holdwatch-0a1b')).toBe('\\\\.\\pipe\\holdwatch-0a1b');
    expect(quoteWindowsArg('C:\\Users\\John Doe\\holdwatch\\bin\\holdwatch.js')).toBe('"C:\\Users\\John Doe\\holdwatch\\bin\\holdwatch.js"');
    expect(quoteWindowsArg('C:\\dir with space\\')).toBe('"C:\\dir with space\\\\"');
    expect(quoteWindowsArg('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteWindowsArg('')).toBe('""');
  });

  it('ERROR_CANCELLED (the UAC prompt declined) becomes ElevationDeclinedError; other failures pass through', () => {
    expect(elevationError(new Win32Error('ShellExecuteExW', ERROR_CANCELLED))).toBeInstanceOf(ElevationDeclinedError);
    const notFound = new Win32Error('ShellExecuteExW', 2);
    expect(elevationError(notFound)).toBe(notFound);
  });
});
