// Inside the packaged app our files live in `resources/app.asar`, an archive only Electron's own
// module loader and fs read. What another program loads (python.exe with the pytest plugin, a user's
// node.exe with the preload) or a worker loads (the name worker, worker threads, the CLI as a child)
// must come from the copy electron-builder unpacks beside it (`asarUnpack`), in `app.asar.unpacked`
// at the same relative place. Outside an archive, a path is returned unchanged.

const ARCHIVE_COMPONENT = /([\\/])app\.asar(?=[\\/]|$)/;

/** `…/resources/app.asar/probes/` -> `…/resources/app.asar.unpacked/probes/`; either separator. */
export function unpackedPath(path: string): string {
  return path.replace(ARCHIVE_COMPONENT, '$1app.asar.unpacked');
}

const UNPACKED_COMPONENT = /([\\/])app\.asar\.unpacked(?=[\\/]|$)/;

/**
 * The other way, for what only Electron's own fs reads (the renderer, package.json): a module
 * running from the unpacked copy finds those in the archive.
 */
export function archivedPath(path: string): string {
  return path.replace(UNPACKED_COMPONENT, '$1app.asar');
}

/** The same for a file: URL (a worker thread's script). */
export function unpackedUrl(url: URL): URL {
  return url.protocol === 'file:' ? new URL(unpackedPath(url.href)) : url;
}
