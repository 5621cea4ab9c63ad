/**
 * Parsers of tsc's and eslint's errors. A failure is named by its file and its error without the line
 * (`src/a.ts: TS2322 Type 'string' is not assignable …`): an edit above it moves the line, not the error.
 */
import type { ParsedOutput } from './parsed-output.js';

/** `src/a.ts(3,5): error TS2322: …` (plain) or `src/a.ts:3:5 - error TS2322: …` (pretty). */
export function parseTsc(text: string): ParsedOutput | undefined {
  const failures = [...text.matchAll(/^(\S[^\n(:]*?)(?:\(\d+,\d+\)|:\d+:\d+)\s*[:-]\s*error (TS\d+): (.+)$/gm)].map(
    (match) => `${match[1]}: ${match[2]} ${match[3].trim()}`,
  );
  const found = /Found (\d+) errors?/.exec(text);
  if (failures.length === 0 && !found) return undefined;
  return { runner: 'tsc', failed: failures.length, failures, diagnostics: true };
}

/** eslint's stylish output: a file's path on its own line, then `  3:5  error  message  rule`. */
export function parseEslint(text: string): ParsedOutput | undefined {
  if (!/^✖ \d+ problems? \(/m.test(text)) return undefined;
  const failures: string[] = [];
  let file: string | undefined;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line) && !line.startsWith('✖')) file = line.trim();
    const problem = /^\s+\d+:\d+\s+error\s+(.+?)\s{2,}(\S+)\s*$/.exec(line);
    if (problem && file !== undefined) failures.push(`${file}: ${problem[2]} ${problem[1]}`);
  }
  return { runner: 'eslint', failed: failures.length, failures, diagnostics: true };
}
