/** Parsers of pytest, `go test` and `cargo test` output. */
import { countOf, type ParsedOutput, uniqueInOrder } from './parsed-output.js';

/** pytest: `FAILED tests/test_x.py::test_adds - …` per failure, `=== 1 failed, 3 passed in 0.1s ===`. */
export function parsePytest(text: string): ParsedOutput | undefined {
  const summary = /^=+ (.*\b(?:passed|failed|error|errors|no tests ran)\b.*) in [\d.]+s.* =+$/m.exec(text);
  if (!summary) return undefined;
  const failures = [...text.matchAll(/^(?:FAILED|ERROR) (\S+?)(?: - .*)?$/gm)].map((match) => match[1]);
  const failed = (countOf(summary[1], /(\d+) failed/) ?? 0) + (countOf(summary[1], /(\d+) errors?/) ?? 0);
  return { runner: 'pytest', passed: countOf(summary[1], /(\d+) passed/) ?? 0, failed, failures: uniqueInOrder(failures) };
}

/** `go test`: `--- FAIL: TestAdds (0.00s)` and `--- PASS: …` (with -v), `FAIL\tpkg` / `ok\tpkg` per package. */
export function parseGoTest(text: string): ParsedOutput | undefined {
  if (!/^(ok|FAIL|---|\?)\s/m.test(text) || !/^(ok|FAIL)\s+\S+/m.test(text)) return undefined;
  const failures = [...text.matchAll(/^\s*--- FAIL: (\S+)/gm)].map((match) => match[1]);
  const passed = [...text.matchAll(/^\s*--- PASS: /gm)].length;
  return { runner: 'go test', ...(passed > 0 ? { passed } : {}), failed: failures.length, failures: uniqueInOrder(failures) };
}

/** `cargo test`: `test tests::adds ... FAILED` and `test result: FAILED. 3 passed; 1 failed; …`. */
export function parseCargoTest(text: string): ParsedOutput | undefined {
  const results = [...text.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed;/gm)];
  if (results.length === 0) return undefined;
  const failures = [...text.matchAll(/^test (\S+) \.\.\. FAILED$/gm)].map((match) => match[1]);
  const sum = (group: number) => results.reduce((total, match) => total + Number(match[group]), 0);
  return { runner: 'cargo test', passed: sum(1), failed: sum(2), failures: uniqueInOrder(failures) };
}
