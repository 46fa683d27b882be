// Serves the built renderer on app://holdwatch/ rather than file://, so 'self' in the CSP means
// exactly the app's own files, and every response carries the strict CSP (host/web/static-files.ts,
// shared with `holdwatch ui`).
import { protocol } from 'electron';
import { readStaticFile, rendererCsp } from '../host/web/static-files.js';

export const APP_ORIGIN = 'app://holdwatch';
/** The app talks to its host over IPC only: the page connects nowhere. */
const CSP = rendererCsp("'none'");

/** Before app ready: app:// is a standard, secure scheme (fetch and modules work, 'self' applies). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    const file = url.host === 'holdwatch' ? await readStaticFile(rendererDir, url.pathname) : null;
    if (!file) return new Response('not found', { status: 404 });
    return new Response(file.body, { headers: { 'Content-Type': file.contentType, 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff' } });
  });
}
