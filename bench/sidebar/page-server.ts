/**
 * Serves B4's page as VS Code would show the sidebar: the real HTML shell (`renderWebviewHtml`, with its
 * Content-Security-Policy: no eval, so libraries run their no-eval paths as in VS Code), the style sheets,
 * and the page script, from a server on 127.0.0.1 (port 0) that only the benchmark's browser talks to.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as nodePath from 'node:path';
import { createNonce, renderWebviewHtml } from '../../src/shared/webview-html.js';

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html' };

export async function servePage(script: string): Promise<PageServer> {
  const files = new Map<string, string | Buffer>([
    ['/page.js', script],
    ['/sidebar.css', readFileSync(nodePath.resolve('media/sidebar.css'))],
    ['/codicon.css', readFileSync(nodePath.resolve('node_modules/@vscode/codicons/dist/codicon.css'))],
    ['/codicon.ttf', readFileSync(nodePath.resolve('node_modules/@vscode/codicons/dist/codicon.ttf'))],
  ]);
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/') {
      const origin = `http://${request.headers.host ?? '127.0.0.1'}`;
      const html = renderWebviewHtml({
        cspSource: origin,
        nonce: createNonce(),
        scriptUri: `${origin}/page.js`,
        styleUri: `${origin}/sidebar.css`,
        codiconUri: `${origin}/codicon.css`,
      });
      response.writeHead(200, { 'content-type': contentTypes['.html'] });
      response.end(html);
      return;
    }
    const body = files.get(path);
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': contentTypes[nodePath.extname(path)] ?? 'application/octet-stream' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
