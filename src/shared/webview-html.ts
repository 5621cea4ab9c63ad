/**
 * The sidebar webview's HTML shell. No `vscode` import: the host passes in `webview.cspSource`, the
 * `asWebviewUri` addresses of the bundle and style sheets, and a fresh nonce from `createNonce()`.
 */

export interface WebviewHtmlOptions {
  /** `webview.cspSource`: where the webview may load styles, fonts and images from. */
  cspSource: string;
  /** A fresh `createNonce()` for every HTML render; only the script carrying it may run. */
  nonce: string;
  /** dist/webview/main.js as a webview URI. */
  scriptUri: string;
  /** media/sidebar.css as a webview URI. */
  styleUri: string;
  /** dist/webview/codicon.css as a webview URI (codicon.ttf must sit next to it). */
  codiconUri: string;
  /** The sidebar's translations (`vscode.l10n.bundle`): English message to translated. Default: none (English). */
  strings?: Readonly<Record<string, string>>;
  /** The display language (`vscode.env.language`), for the page's `lang`. Default `en`. */
  language?: string;
}

/**
 * The Content-Security-Policy of the sidebar. No inline styles and no 'unsafe-inline': the webview sets
 * positions through the CSSOM (`element.style.transform = …`), which CSP allows. Images only from the
 * extension or `data:`, so model output cannot load a remote image to exfiltrate data.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

/** One CSP source expression: `'self'`, a scheme (`data:`), or a host source with no delimiters in it. */
const sourceExpression = /^(?:'self'|[a-z][a-z0-9+.-]*:|(?:[a-z][a-z0-9+.-]*:\/\/)?[A-Za-z0-9*.-]+(?::(?:\d+|\*))?(?:\/[^\s;,'"<>]*)?)$/;

/**
 * The host's `cspSource` as a clean source list. VS Code hands out a list (`'self' https://*.vscode-cdn.net`);
 * anything that could end a directive or open another (`;`, `'unsafe-inline'`, quotes) is refused.
 */
export function checkedSourceList(cspSource: string): string {
  const sources = cspSource.trim().split(/\s+/);
  if (sources[0] === '' || !sources.every((source) => sourceExpression.test(source))) {
    throw new Error(`renderWebviewHtml: unexpected cspSource "${cspSource}"`);
  }
  return sources.join(' ');
}

export function renderWebviewHtml(options: WebviewHtmlOptions): string {
  // Values go into a CSP and attributes: refuse anything that could end a directive or an attribute.
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(options.nonce))
    throw new Error('renderWebviewHtml: the nonce must be at least 16 base64 or hex characters');
  const policy = contentSecurityPolicy(checkedSourceList(options.cspSource), options.nonce);
  return `<!DOCTYPE html>
<html lang="${escapeAttribute(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(options.language ?? '') ? options.language! : 'en')}">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${escapeAttribute(options.codiconUri)}" id="vscode-codicon-stylesheet">
  <link rel="stylesheet" href="${escapeAttribute(options.styleUri)}">
  <title>Agent Team</title>
</head>
<body>
  <div id="app" class="app" data-l10n="${escapeAttribute(JSON.stringify(options.strings ?? {}))}"></div>
  <script nonce="${escapeAttribute(options.nonce)}" src="${escapeAttribute(options.scriptUri)}"></script>
</body>
</html>
`;
}

/**
 * 128 random bits as 32 hex characters, from the Web Crypto API (`globalThis.crypto`, present in browsers
 * and in Node 20), so the host and tests share one implementation and never fall back to `Math.random`.
 */
export function createNonce(): string {
  const cryptoApi = (globalThis as { crypto?: { getRandomValues<T extends Uint8Array>(array: T): T } }).crypto;
  if (!cryptoApi) throw new Error('createNonce: no Web Crypto API (globalThis.crypto) in this environment');
  const bytes = cryptoApi.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
