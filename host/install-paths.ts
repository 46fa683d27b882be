// The package's own files, found from this module's place in it (dist/host/install-paths.js): the
// probes other processes load, the CLI that child processes run, the built renderer, package.json.
// One place computes them, so moving a module cannot silently point it at a folder that is not there.
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = new URL('../../', import.meta.url);

/** The bundled probes (`probes/`), with a trailing separator. */
export const PROBES_DIR = fileURLToPath(new URL('probes/', PACKAGE_ROOT));
/** The CLI's entry: the scanner worker and the live-stack capture run it as a child. */
export const CLI_SCRIPT = fileURLToPath(new URL('bin/holdwatch.js', PACKAGE_ROOT));
/** Where vite puts the renderer, with a trailing separator. */
export const RENDERER_DIR = fileURLToPath(new URL('dist/renderer/', PACKAGE_ROOT));
export const PACKAGE_JSON = new URL('package.json', PACKAGE_ROOT);
