// The built renderer's files, as both hosts serve them: Electron's app:// protocol and `holdwatch ui`'s
// HTTP server. One traversal check, one table of content types, one strict CSP.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * The Content-Security-Policy of every renderer response: no inline script, nothing from elsewhere.
 * `connectSources`: what the page may connect to (`'none'` in Electron; the WebSocket in `holdwatch ui`).
 */
export function rendererCsp(connectSources: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${connectSources}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface StaticFile {
  /** The absolute path read. */
  path: string;
  body: Buffer<ArrayBuffer>;
  contentType: string;
}

/** `/` is index.html. A path that would leave `rootDir` (`..`, encoded or not) names nothing. */
export function staticPathOf(rootDir: string, urlPathname: string): string | null {
  const relative = urlPathname === '/' ? 'index.html' : decodeURIComponent(urlPathname).replace(/^\/+/, '');
  const full = normalize(join(rootDir, relative));
  return full.startsWith(normalize(rootDir + sep)) ? full : null;
}

/**
 * The file a URL path names under `rootDir`, or null when there is none or it lies outside: by its
 * name, and by where it really is (a link inside the renderer dir may point anywhere).
 */
export async function readStaticFile(rootDir: string, urlPathname: string): Promise<StaticFile | null> {
  const path = staticPathOf(rootDir, urlPathname);
  if (path === null) return null;
  try {
    // realpathSync: Electron's asar patch answers it for paths inside app.asar.
    const real = realpathSync(path);
    if (!real.startsWith(realpathSync(rootDir) + sep)) return null;
    return { path, body: await readFile(real), contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
