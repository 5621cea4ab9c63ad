import { describe, expect, it } from 'vitest';
import { checkedSourceList, createNonce, renderWebviewHtml } from '../../src/shared/webview-html.js';

const options = {
  cspSource: 'https://*.vscode-cdn.net',
  nonce: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/main.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/sidebar.css',
  codiconUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/codicon.css',
};

describe('renderWebviewHtml', () => {
  it('sets a CSP without inline styles or scripts, allowing only the nonce script and local resources', () => {
    const html = renderWebviewHtml(options);
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(policy).toBe(
      "default-src 'none'; style-src https://*.vscode-cdn.net; font-src https://*.vscode-cdn.net; " +
        "img-src https://*.vscode-cdn.net data:; script-src 'nonce-a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6'",
    );
    expect(html).toContain(`<script nonce="${options.nonce}" src="${options.scriptUri}"></script>`);
    expect(html).toContain(`href="${options.styleUri}"`);
    expect(html).toContain(`href="${options.codiconUri}"`);
    expect(html).not.toMatch(/style="/);
    expect(html).not.toMatch(/<style/);
    expect(html).toContain('<div id="app"');
  });

  it('escapes resource URIs and refuses values that could break out of the policy', () => {
    expect(renderWebviewHtml({ ...options, scriptUri: 'https://x/"><script>' })).toContain('src="https://x/&quot;&gt;&lt;script&gt;"');
    expect(() => renderWebviewHtml({ ...options, nonce: "abc'; script-src *" })).toThrow(/nonce/);
    expect(() => renderWebviewHtml({ ...options, cspSource: "https://x; script-src 'unsafe-inline'" })).toThrow(/cspSource/);
  });
});

describe('createNonce', () => {
  it('returns 128 random bits as 32 hex characters, different every time', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{32}$/);
  });

  it("accepts VS Code's source list and refuses one that would smuggle in directives", () => {
    expect(checkedSourceList("'self'   https://*.vscode-cdn.net")).toBe("'self' https://*.vscode-cdn.net");
    expect(renderWebviewHtml({ ...options, cspSource: "'self' https://*.vscode-cdn.net" })).toContain(
      "style-src 'self' https://*.vscode-cdn.net",
    );
    expect(() => checkedSourceList("https://x; script-src 'unsafe-inline'")).toThrow(/cspSource/);
    expect(() => checkedSourceList('https://x" onload="alert(1)')).toThrow(/cspSource/);
    expect(() => checkedSourceList("'unsafe-inline'")).toThrow(/cspSource/);
    expect(() => checkedSourceList('')).toThrow(/cspSource/);
  });
});
