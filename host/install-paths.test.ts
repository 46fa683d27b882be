import { describe, expect, it } from 'vitest';
import { installPaths } from './install-paths.js';

describe('installPaths', () => {
  it('in the packaged app, the probes and the CLI come from app.asar.unpacked (python.exe and node.exe cannot read the archive)', () => {
    const paths = installPaths('file:///opt/holdwatch/resources/app.asar/dist/host/install-paths.js');
    expect(paths.probesDir).toBe('/opt/holdwatch/resources/app.asar.unpacked/probes/');
    expect(paths.cliScript).toBe('/opt/holdwatch/resources/app.asar.unpacked/bin/holdwatch.js');
    // Read by the app's own fs, which serves the archive.
    expect(paths.rendererDir).toBe('/opt/holdwatch/resources/app.asar/dist/renderer/');
  });

  it('the CLI child, running from the unpacked copy, still finds the renderer and package.json in the archive', () => {
    const paths = installPaths('file:///opt/holdwatch/resources/app.asar.unpacked/dist/host/install-paths.js');
    expect(paths.probesDir).toBe('/opt/holdwatch/resources/app.asar.unpacked/probes/');
    expect(paths.rendererDir).toBe('/opt/holdwatch/resources/app.asar/dist/renderer/');
    expect(paths.packageJson.href).toBe('file:///opt/holdwatch/resources/app.asar/package.json');
  });

  it('in a checkout or an npm install, every path is where the module finds it', () => {
    const paths = installPaths('file:///work/holdwatch/dist/host/install-paths.js');
    expect(paths.probesDir).toBe('/work/holdwatch/probes/');
    expect(paths.cliScript).toBe('/work/holdwatch/bin/holdwatch.js');
    expect(paths.packageJson.href).toBe('file:///work/holdwatch/package.json');
  });
});
