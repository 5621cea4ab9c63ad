// The translation bundle's source: every message the extension and the sidebar say through `l10n.t(…)`
// (src/extension: vscode.l10n; src/webview: its own l10n.t over the table the host hands it), written to
// l10n/bundle.l10n.json, the file a translator copies to bundle.l10n.<language>.json. A test fails when
// the bundle is not what this script would write, so a new message cannot ship untranslatable.
//   node scripts/l10n-bundle.mjs            write the bundle
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bundlePath = join(root, 'l10n', 'bundle.l10n.json');

/** The messages of one source text: the first argument of each `l10n.t(` that is a plain string literal. */
export function extractMessages(text) {
  const messages = [];
  const call = /\bl10n\.t\(\s*(['"])/g;
  for (let match = call.exec(text); match; match = call.exec(text)) {
    const quote = match[1];
    let index = match.index + match[0].length;
    let raw = '';
    while (index < text.length && text[index] !== quote) {
      raw += text[index] === '\\' ? text[index++] + text[index] : text[index];
      index++;
    }
    messages.push(unescape(raw, quote));
  }
  return messages;
}

/** A JavaScript string literal's body as its value (the escapes the sources use). */
function unescape(raw, quote) {
  return raw.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_whole, escape) => {
    if (escape.startsWith('u{')) return String.fromCodePoint(parseInt(escape.slice(2, -1), 16));
    if (escape.startsWith('u') && escape.length === 5) return String.fromCharCode(parseInt(escape.slice(1), 16));
    if (escape.startsWith('x') && escape.length === 3) return String.fromCharCode(parseInt(escape.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r', 0: '\0' }[escape] ?? (escape === quote ? quote : escape);
  });
}

/** The bundle for the sources under src/extension and src/webview: each message mapped to itself, sorted. */
export function buildBundle() {
  const messages = new Set();
  for (const folder of ['src/extension', 'src/webview']) {
    for (const file of readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })) {
      if (file.endsWith('.ts'))
        for (const message of extractMessages(readFileSync(join(root, folder, file), 'utf8'))) messages.add(message);
    }
  }
  return Object.fromEntries([...messages].sort().map((message) => [message, message]));
}

export function bundleText() {
  return `${JSON.stringify(buildBundle(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(bundlePath, bundleText());
  console.log(`wrote ${bundlePath}`);
}
