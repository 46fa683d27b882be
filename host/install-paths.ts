// The package's own files, found from this module's place in it (dist/host/install-paths.js): the
// probes other processes load, the CLI that child processes run, the built renderer, package.json.
// One place computes them, so moving a module cannot silently point it at a folder that is not there.
import { fileURLToPath } from 'node:url';
import { archivedPath, unpackedPath } from '../core/asar-unpacked.js';

export interface InstallPaths {
  /** The bundled probes (`probes/`), with a trailing separator. */
  probesDir: string;
  /** The CLI's entry: the scanner worker and the live-stack capture run it as a child. */
  cliScript: string;
  /** Where vite puts the renderer, with a trailing separator. */
  rendererDir: string;
  packageJson: URL;
}

/**
 * The paths, for this module at `moduleUrl`. In the packaged app the probes and the CLI are loaded
 * by other programs (python.exe, node.exe, Electron as Node), which cannot read inside app.asar:
 * they come from its unpacked copy. The renderer and package.json stay in the archive, read by
 * Electron's fs (the app, or the CLI child it runs as Node) wherever this module runs from.
 */
export function installPaths(moduleUrl: string | URL): InstallPaths {
  const root = new URL('../../', moduleUrl);
  return {
    probesDir: unpackedPath(fileURLToPath(new URL('probes/', root))),
    cliScript: unpackedPath(fileURLToPath(new URL('bin/holdwatch.js', root))),
    rendererDir: archivedPath(fileURLToPath(new URL('dist/renderer/', root))),
    packageJson: new URL(archivedPath(new URL('package.json', root).href)),
  };
}

const HERE = installPaths(import.meta.url);

export const PROBES_DIR = HERE.probesDir;
export const CLI_SCRIPT = HERE.cliScript;
export const RENDERER_DIR = HERE.rendererDir;
export const PACKAGE_JSON = HERE.packageJson;
