/** What a runner's output says, once parsed: counts and the names of what failed. */
export interface ParsedOutput {
  /** `vitest`, `jest`, `mocha`, `node --test`, `pytest`, `go test`, `cargo test`, `tsc`, `eslint`. */
  runner: string;
  passed?: number;
  failed?: number;
  /**
   * What failed, one entry per failure, stable across runs: a test's name (`math › adds`), or for a
   * type checker or linter the file and the error without its line (`src/a.ts: TS2322 …`), which moves
   * when lines are added above it. The same entry may appear several times (two equal errors in a file).
   */
  failures: string[];
  /** For tsc and eslint: the failures are errors in files (the summary says "errors in <file>"). */
  diagnostics?: boolean;
}

/** The separator of a test's suites and name, as the issue writes it: `parser › handles empty input`. */
export const nameSeparator = ' › ';

export function countOf(text: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(text);
  return match ? Number(match[1]) : undefined;
}

export function uniqueInOrder(names: Iterable<string>): string[] {
  return [...new Set(names)];
}
