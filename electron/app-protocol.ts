// Serves the built renderer on app://holdwatch/ rather than file://, so 'self' in the CSP means
// exactly the app's own files, and every response carries the strict CSP.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { protocol } from 'electron';

export const APP_ORIGIN = 'app://holdwatch';
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

/** Before app ready: app:// is a standard, secure scheme (fetch and modules work, 'self' applies). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    const file = normalize(join(rendererDir, url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname)));
    if (url.host !== 'holdwatch' || !file.startsWith(normalize(rendererDir + sep))) return new Response('not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff' },
      });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });
}
