// Kernel names as Windows gives them for files (and for what is not a file on a disk).
import { describe, expect, it } from 'vitest';
import { isDiskName } from './disk-names.js';

describe('isDiskName', () => {
  it.each([
    '\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp\\x.db',
    '\\Device\\HarddiskVolumeShadowCopy12\\Windows\\notepad.exe',
    '\\Device\\ImDisk0\\build\\out.log',
    '\\Device\\Ramdisk{8fd7c2a2-1b2c-4e1a-9c3b-2d1f0e4a5b6c}\\tmp\\a',
    '\\Device\\Volume{5e3c0d8a-1111-2222-3333-444455556666}\\data\\b',
    '\\Device\\Mup\\server\\share\\file.txt',
    '\\Device\\LanmanRedirector\\;Z:0000000000012345\\server\\share\\f',
    '\\Device\\CdRom0\\setup.exe',
    '\\??\\Z:\\tmp\\wine-file',
  ])('a file: %s', (name) => expect(isDiskName(name)).toBe(true));

  it.each([
    '\\Device\\NamedPipe\\uv\\0000019c-12',
    '\\Device\\ConDrv',
    '\\Device\\Afd\\Endpoint',
    '\\Device\\Mailslot\\x',
    '\\Device\\KsecDD',
    '\\Device\\HarddiskVolume3', // the volume itself, no file
  ])('not a file on a disk: %s', (name) => expect(isDiskName(name)).toBe(false));
});
