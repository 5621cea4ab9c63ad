/** The sidebar's HTML for one webview: the shared shell with this webview's URIs, source list and nonce. */
import * as vscode from 'vscode';
import { createNonce, renderWebviewHtml } from '../../shared/webview-html.js';

export function sidebarHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const webviewRoot = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  return renderWebviewHtml({
    cspSource: webview.cspSource,
    nonce: createNonce(),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'main.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'sidebar.css')).toString(),
    codiconUri: webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'codicon.css')).toString(),
    // The sidebar says its strings in the display language too (src/webview/l10n.ts).
    strings: vscode.l10n.bundle ?? {},
    language: vscode.env.language,
  });
}
