/** Parsers of the JavaScript test runners' default output: vitest, jest, mocha and `node --test`. */
import { countOf, nameSeparator, type ParsedOutput, uniqueInOrder } from './parsed-output.js';

/** vitest: ` FAIL  test/math.test.ts > math > adds` per failure and `Tests  1 failed | 3 passed (4)`. */
export function parseVitest(text: string): ParsedOutput | undefined {
  const summary = /^\s*Tests\s+(.*\(\d+\))\s*$/m.exec(text);
  if (!summary || !/\b(RUN|vitest)\b/i.test(text)) return undefined;
  const failures = [...text.matchAll(/^\s*(?:FAIL|×|✗)\s+(\S+?\.[cm]?[jt]sx?)\s+>\s+(.+?)\s*(?:\d+ms)?$/gm)].map((match) =>
    match[2].split(/\s+>\s+/).join(nameSeparator),
  );
  return {
    runner: 'vitest',
    passed: countOf(summary[1], /(\d+) passed/) ?? 0,
    failed: countOf(summary[1], /(\d+) failed/) ?? 0,
    failures: uniqueInOrder(failures),
  };
}

/** jest: `  ● math › adds` per failure and `Tests:       1 failed, 3 passed, 4 total`. */
export function parseJest(text: string): ParsedOutput | undefined {
  const summary = /^Tests:\s+(.*\d+ total)\s*$/m.exec(text);
  if (!summary) return undefined;
  const failures = [...text.matchAll(/^\s*● (.+?)\s*$/gm)]
    .map((match) => match[1])
    .filter((name) => !name.startsWith('Test suite failed to run') && name !== 'Console');
  return {
    runner: 'jest',
    passed: countOf(summary[1], /(\d+) passed/) ?? 0,
    failed: countOf(summary[1], /(\d+) failed/) ?? 0,
    failures: uniqueInOrder(failures),
  };
}

/** mocha: `  3 passing`, `  1 failing`, then `  1) suite\n       name:` per failure. */
export function parseMocha(text: string): ParsedOutput | undefined {
  const passed = countOf(text, /^\s*(\d+) passing\b/m);
  if (passed === undefined) return undefined;
  const failed = countOf(text, /^\s*(\d+) failing\b/m) ?? 0;
  const failures: string[] = [];
  const listed = text.slice(text.search(/^\s*\d+ failing\b/m) + 1 || text.length);
  const lines = listed.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const first = /^\s+\d+\) (.+)$/.exec(lines[index]);
    if (!first) continue;
    const parts = [first[1].trim()];
    // The title goes on, one suite per line, until a line ending with `:`.
    while (!parts[parts.length - 1].endsWith(':') && index + 1 < lines.length && /^\s+\S/.test(lines[index + 1]))
      parts.push(lines[++index].trim());
    parts[parts.length - 1] = parts[parts.length - 1].replace(/:$/, '');
    failures.push(parts.join(nameSeparator));
  }
  return { runner: 'mocha', passed, failed, failures: uniqueInOrder(failures) };
}

/** `node --test`: TAP (`not ok 1 - name`, `# pass 3`, `# fail 1`) or the spec reporter (`✖ name`, `ℹ fail 1`). */
export function parseNodeTest(text: string): ParsedOutput | undefined {
  const tap = countOf(text, /^# pass (\d+)$/m);
  if (tap !== undefined) {
    const failures = [...text.matchAll(/^\s*not ok \d+ - (.+?)\s*$/gm)].map((match) => match[1]);
    // A suite that fails because a test in it failed is listed too: only leaves are kept (the indented ones come first).
    return { runner: 'node --test', passed: tap, failed: countOf(text, /^# fail (\d+)$/m) ?? 0, failures: uniqueInOrder(failures) };
  }
  const spec = countOf(text, /^ℹ pass (\d+)$/m);
  if (spec === undefined) return undefined;
  const failingSection = text.indexOf('✖ failing tests:');
  const section = failingSection >= 0 ? text.slice(failingSection) : text;
  const failures = [...section.matchAll(/^\s*✖ (.+?)(?: \([\d.]+m?s\))?\s*$/gm)]
    .map((match) => match[1])
    .filter((name) => name !== 'failing tests:');
  return { runner: 'node --test', passed: spec, failed: countOf(text, /^ℹ fail (\d+)$/m) ?? 0, failures: uniqueInOrder(failures) };
}
