/**
 * Every user-facing string of the extension goes through `vscode.l10n.t` (and the sidebar's through its
 * own `l10n.t` over the table the host hands it), and the bundle a translator starts from
 * (l10n/bundle.l10n.json, named by the manifest's `l10n`) holds exactly those messages. The scan looks
 * for the shapes user text takes in this code (notifications, their buttons, pickers, input boxes,
 * progress, status bar) with a sentence literal instead of `l10n.t(…)`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { bundleText, extractMessages } from '../../scripts/l10n-bundle.mjs';

const root = nodePath.join(__dirname, '../..');

/** Literal user text (a sentence: it holds a space) where an `l10n.t(…)` belongs. */
const untranslated = [
  /\b(?:showInfo|showWarning|showError|confirmModal|show(?:Information|Warning|Error)Message|commandAction|stream\.progress)\(\s*(['"`])[^'"`]*[A-Za-z]/g,
  /\b(?:title|prompt|placeHolder|tooltip|detail|message|description|label)\s*:\s*(['"`])[A-Za-z][^'"`\n]*\s[^'"`\n]*\1/g,
  /\b(?:title|prompt|placeHolder|detail|description|label)\s*:[^,\n]*\?\s*(['"`])[A-Za-z][^'"`\n]*\s[^'"`\n]*\1/g,
  /\.(?:text|tooltip)\s*=\s*(['"`])[A-Za-z][^'"`\n]*\s/g,
  /progress\.report\(\{\s*message:\s*(['"`])/g,
  // What an input box's check says.
  /(?:return|\?)\s*'[A-Z][a-z]+ [^'\n]*[.?]'/g,
  // Arguments of a helper that asks (a title and a sentence as plain arguments).
  /\bask\w*\(\s*(['"`])[A-Z]/g,
];

function sources(folder: string): Array<{ file: string; text: string }> {
  return readdirSync(nodePath.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file: `${folder}/${file}`, text: readFileSync(nodePath.join(root, folder, file), 'utf8') }));
}

describe('l10n', () => {
  it('names the bundle in the manifest and ships it', () => {
    const manifest = JSON.parse(readFileSync(nodePath.join(root, 'package.json'), 'utf8')) as { l10n?: string };
    expect(manifest.l10n).toBe('./l10n');
    expect(readFileSync(nodePath.join(root, '.vscodeignore'), 'utf8')).toContain('!l10n/**');
  });

  it('keeps the bundle exactly the messages the code says (node scripts/l10n-bundle.mjs writes it)', () => {
    expect(readFileSync(nodePath.join(root, 'l10n/bundle.l10n.json'), 'utf8')).toBe(bundleText());
  });

  it('finds each message of an l10n.t call, escapes included', () => {
    expect(extractMessages('vscode.l10n.t(\'It\\u2019s {0}\', a); l10n.t(\n  "Two\\nlines"); l10n.t(`template`)')).toEqual([
      'It\u2019s {0}',
      'Two\nlines',
    ]);
  });

  it('says no user-facing words of the sidebar outside l10n.t', () => {
    const shapes =
      /createButton\(document,\s*['"`][A-Z]|\btext:\s*['"`][A-Z]|'aria-label':\s*['"`][A-Z]|\btitle:\s*['"`][A-Z]|paragraph\(document,\s*['"`][A-Z]/g;
    const found = sources('src/webview').flatMap(({ file, text }) =>
      [...text.matchAll(shapes)].map((match) => `${file}: ${text.slice(match.index, match.index + 60)}`),
    );
    expect(found).toEqual([]);
  });

  it('says no user-facing sentence of the extension host outside l10n.t', () => {
    const found: string[] = [];
    for (const { file, text } of sources('src/extension')) {
      for (const pattern of untranslated) {
        for (const match of text.matchAll(pattern)) {
          const line = text.slice(0, match.index).split('\n').length;
          if (/^\s*(\/\/|\*)/.test(text.split('\n')[line - 1]!)) continue;
          found.push(`${file}:${line}: ${match[0].slice(0, 80)}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
