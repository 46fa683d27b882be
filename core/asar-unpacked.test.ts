import { describe, expect, it } from 'vitest';
import { archivedPath, unpackedPath, unpackedUrl } from './asar-unpacked.js';

describe('unpackedPath', () => {
  it('moves a path inside the installed app archive to its unpacked copy (Windows)', () => {
    const probes = 'C:\\Users\\ana\\AppData\\Local\\Programs\\holdwatch\\resources\\app.asar\\probes\\';
    expect(unpackedPath(probes)).toBe('C:\\Users\\ana\\AppData\\Local\\Programs\\holdwatch\\resources\\app.asar.unpacked\\probes\\');
  });

  it('moves a path inside an AppImage or deb archive (Linux)', () => {
    expect(unpackedPath('/opt/holdwatch/resources/app.asar/bin/holdwatch.js')).toBe('/opt/holdwatch/resources/app.asar.unpacked/bin/holdwatch.js');
  });

  it('leaves a path outside an archive, an unpacked path, and a look-alike name alone', () => {
    for (const path of ['/work/holdwatch/probes/', 'C:\\x\\resources\\app.asar.unpacked\\probes\\', '/x/my-app.asar/probes', '/x/app.asarx/probes']) {
      expect(unpackedPath(path)).toBe(path);
    }
  });
});

describe('unpackedUrl', () => {
  it("moves a worker thread's file URL inside the archive", () => {
    const url = new URL('file:///C:/Program%20Files/holdwatch/resources/app.asar/dist/native/threaded/holder-thread.js');
    expect(unpackedUrl(url).href).toBe('file:///C:/Program%20Files/holdwatch/resources/app.asar.unpacked/dist/native/threaded/holder-thread.js');
  });
});

describe('archivedPath', () => {
  it('from the unpacked copy back to the archive, for what only Electron reads', () => {
    expect(archivedPath('C:\\x\\resources\\app.asar.unpacked\\dist\\renderer\\')).toBe('C:\\x\\resources\\app.asar\\dist\\renderer\\');
    expect(archivedPath('/work/holdwatch/dist/renderer/')).toBe('/work/holdwatch/dist/renderer/');
  });
});
