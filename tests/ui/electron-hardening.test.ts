// Static checks of electron/: Electron's binary cannot run here, so the hardening is proven from the
// source. Every `new BrowserWindow` must spell out the hardened webPreferences as literals; raw IPC
// lives only in the files that validate it; navigation and new windows are blocked.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { rendererCsp } from '../../host/web/static-files.js';
import { REPO_ROOT } from '../support/cli.js';

const ELECTRON_DIR = join(REPO_ROOT, 'electron');
const files = readdirSync(ELECTRON_DIR)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => ({ name: f, source: ts.createSourceFile(f, readFileSync(join(ELECTRON_DIR, f), 'utf8'), ts.ScriptTarget.Latest, true) }));

const REQUIRED: Record<string, boolean> = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
};

function visit(node: ts.Node, fn: (n: ts.Node) => void): void {
  fn(node);
  node.forEachChild((child) => visit(child, fn));
}

function windowsIn(source: ts.SourceFile): ts.NewExpression[] {
  const found: ts.NewExpression[] = [];
  visit(source, (n) => {
    if (ts.isNewExpression(n) && n.expression.getText(source) === 'BrowserWindow') found.push(n);
  });
  return found;
}

/** The literal value of `name` in an object literal, or 'not-literal' / 'missing'. */
function literalProperty(object: ts.ObjectLiteralExpression, name: string): boolean | 'not-literal' | 'missing' {
  const prop = object.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === name) as ts.PropertyAssignment | undefined;
  if (!prop) return 'missing';
  if (prop.initializer.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (prop.initializer.kind === ts.SyntaxKind.FalseKeyword) return false;
  return 'not-literal';
}

describe('electron/ hardening (static)', () => {
  it('creates at least one window, and every BrowserWindow has the hardened webPreferences as literals', () => {
    const all = files.flatMap(({ name, source }) => windowsIn(source).map((w) => ({ name, w, source })));
    expect(all.length).toBeGreaterThan(0);
    for (const { name, w, source } of all) {
      const options = w.arguments?.[0];
      expect(options && ts.isObjectLiteralExpression(options), `${name}: BrowserWindow options must be an object literal`).toBe(true);
      const prefs = (options as ts.ObjectLiteralExpression).properties.find(
        (p) => ts.isPropertyAssignment(p) && p.name.getText(source) === 'webPreferences',
      ) as ts.PropertyAssignment | undefined;
      expect(prefs && ts.isObjectLiteralExpression(prefs.initializer), `${name}: webPreferences must be an object literal`).toBe(true);
      const object = prefs!.initializer as ts.ObjectLiteralExpression;
      for (const [key, value] of Object.entries(REQUIRED)) expect(literalProperty(object, key), `${name}: webPreferences.${key}`).toBe(value);
      expect(
        object.properties.some((p) => ts.isSpreadAssignment(p)),
        `${name}: no spread in webPreferences`,
      ).toBe(false);
    }
  });

  it('uses ipcMain only in ipc-host.ts, which validates through the contract and checks the sender', () => {
    const users = files.filter(({ source }) => /\bipcMain\b/.test(source.text)).map((f) => f.name);
    expect(users).toEqual(['ipc-host.ts']);
    const host = files.find((f) => f.name === 'ipc-host.ts')!.source.text;
    // Each window's pages answer through the contract's dispatcher, which validates (host/page-owned.ts).
    expect(host).toMatch(/pagesOf\(event\.sender\)\.request\(method, request\)/);
    expect(readFileSync(join(REPO_ROOT, 'host', 'page-owned.ts'), 'utf8')).toMatch(/await dispatchRequest\(this\.service, method, request, /);
    expect(host).toMatch(/if \(!trusted\(event\)\) throw/);
    expect(host).not.toMatch(/ipcMain\.on\(/); // invoke/handle only: every request gets an answer or an error
  });

  it('exposes only the bridge from the preload, and no ipcRenderer', () => {
    const preload = files.find((f) => f.name === 'preload.ts')!.source.text;
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toMatch(/exposeInMainWorld\('holdwatchBridge', bridge\)/);
  });

  it('blocks navigation, new windows and webviews for every web contents, and serves a strict CSP', () => {
    const main = files.find((f) => f.name === 'main.ts')!.source.text;
    expect(main).toMatch(/app\.on\('web-contents-created'/);
    expect(main).toMatch(/'will-navigate'[\s\S]*preventDefault/);
    expect(main).toMatch(/setWindowOpenHandler\([\s\S]*action: 'deny'/);
    expect(main).toMatch(/'will-attach-webview'/);
    expect(main).toMatch(/requestSingleInstanceLock\(\)/);
    // The CSP is built in host/web/static-files.ts (shared with `holdwatch ui`): the app's, evaluated.
    const protocol = files.find((f) => f.name === 'app-protocol.ts')!.source.text;
    expect(protocol).toMatch(/const CSP = rendererCsp\("'none'"\);/);
    expect(protocol).toMatch(/'Content-Security-Policy': CSP/);
    expect(rendererCsp("'none'")).toMatch(/script-src 'self'/);
    expect(rendererCsp("'none'")).toMatch(/connect-src 'none'/);
    expect(rendererCsp("'none'")).not.toMatch(/unsafe-(inline|eval)/);
  });
});
