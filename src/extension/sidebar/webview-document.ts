/**
 * The sidebar's HTML for one webview. `renderWebviewHtml` (src/shared) refuses a `cspSource` with spaces or
 * quotes, but VS Code and code-server hand out `'self' https://*.vscode-cdn.net`. Until that check accepts
 * a source list, the HTML is rendered with a placeholder source and the real one, checked here token by
 * token, is put in its place. (Reported to the owner of webview-html.ts; drop this once it is fixed.)
 */
import * as vscode from 'vscode';
import { createNonce, renderWebviewHtml } from '../../shared/webview-html.js';

const placeholderSource = 'https://agent-team-csp-source.invalid';

/** One CSP source expression: a keyword such as `'self'`, a scheme (`data:`), or a host source with no delimiters. */
const sourceToken = /^(?:'self'|[a-z][a-z0-9+.-]*:|(?:[a-z][a-z0-9+.-]*:\/\/)?[A-Za-z0-9*.-]+(?::(?:\d+|\*))?(?:\/[^\s;,'"<>]*)?)$/;

/** The webview's `cspSource` when it is a plain list of source expressions; throws otherwise. */
export function checkedCspSource(cspSource: string): string {
  const tokens = cspSource.trim().split(/\s+/);
  if (tokens.length === 0 || tokens[0] === '' || !tokens.every((token) => sourceToken.test(token))) {
    throw new Error(`Agent Team: unexpected webview cspSource "${cspSource}"`);
  }
  return tokens.join(' ');
}

export function sidebarHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const webviewRoot = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const html = renderWebviewHtml({
    cspSource: placeholderSource,
    nonce: createNonce(),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'main.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'sidebar.css')).toString(),
    codiconUri: webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'codicon.css')).toString(),
  });
  // The source lands inside the double-quoted CSP attribute: quotes of the `'self'` kind are fine there.
  return html.split(placeholderSource).join(checkedCspSource(webview.cspSource).replace(/&/g, '&amp;'));
}
