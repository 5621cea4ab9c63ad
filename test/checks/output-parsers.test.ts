/** Each runner's output, as it prints it, read into counts and the names of what failed. */
import { describe, expect, it } from 'vitest';
import { parseCheckOutput } from '../../src/engine/checks/output-parsers.js';

describe('parseCheckOutput', () => {
  it('vitest', () => {
    const output =
      ' RUN  v4.1.12 /repo\n\n ❯ test/parser.test.ts (3 tests | 2 failed) 5ms\n   × parser > handles empty input 2ms\n\n FAIL  test/parser.test.ts > parser > handles empty input\nAssertionError\n FAIL  test/parser.test.ts > parser > nested > handles nulls\n\n Test Files  1 failed (1)\n      Tests  2 failed | 1 passed (3)\n';
    expect(parseCheckOutput(output)).toEqual({
      runner: 'vitest',
      passed: 1,
      failed: 2,
      failures: ['parser › handles empty input', 'parser › nested › handles nulls'],
    });
  });

  it('jest', () => {
    const output =
      'FAIL src/math.test.js\n  math\n    ✕ adds (3 ms)\n\n  ● math › adds\n\n    expect(received).toBe(expected)\n\nTests:       1 failed, 4 passed, 5 total\n';
    expect(parseCheckOutput(output)).toEqual({ runner: 'jest', passed: 4, failed: 1, failures: ['math › adds'] });
  });

  it('mocha', () => {
    const output =
      '  math\n    ✔ halves\n    1) adds\n\n  1 passing (5ms)\n  1 failing\n\n  1) math\n       adds:\n     AssertionError: expected 6 to equal 5\n';
    expect(parseCheckOutput(output)).toEqual({ runner: 'mocha', passed: 1, failed: 1, failures: ['math › adds'] });
  });

  it('node --test, TAP and spec', () => {
    expect(parseCheckOutput('TAP version 13\nnot ok 1 - adds\nok 2 - halves\n1..2\n# tests 2\n# pass 1\n# fail 1\n')).toEqual({
      runner: 'node --test',
      passed: 1,
      failed: 1,
      failures: ['adds'],
    });
    expect(
      parseCheckOutput(
        '✔ halves (0.5ms)\n✖ adds (1.2ms)\nℹ tests 2\nℹ pass 1\nℹ fail 1\n\n✖ failing tests:\n\ntest at file.js:1:1\n✖ adds (1.2ms)\n',
      ),
    ).toEqual({ runner: 'node --test', passed: 1, failed: 1, failures: ['adds'] });
  });

  it('pytest', () => {
    const output =
      '============================= test session starts ==============================\ncollected 2 items\n\ntests/test_calc.py F.                                                    [100%]\n\n=========================== short test summary info ============================\nFAILED tests/test_calc.py::test_add - assert -1 == 5\n========================= 1 failed, 1 passed in 0.03s ==========================\n';
    expect(parseCheckOutput(output)).toEqual({ runner: 'pytest', passed: 1, failed: 1, failures: ['tests/test_calc.py::test_add'] });
  });

  it('go test', () => {
    const output =
      '=== RUN   TestAdd\n--- FAIL: TestAdd (0.00s)\n    calc_test.go:6: got 6\n=== RUN   TestHalf\n--- PASS: TestHalf (0.00s)\nFAIL\nFAIL\texample.com/calc\t0.002s\n';
    expect(parseCheckOutput(output)).toEqual({ runner: 'go test', passed: 1, failed: 1, failures: ['TestAdd'] });
  });

  it('cargo test', () => {
    const output =
      'running 2 tests\ntest tests::halves ... ok\ntest tests::adds ... FAILED\n\nfailures:\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n';
    expect(parseCheckOutput(output)).toEqual({ runner: 'cargo test', passed: 1, failed: 1, failures: ['tests::adds'] });
  });

  it('tsc, plain and pretty: the file and the error without its line', () => {
    expect(
      parseCheckOutput(
        "src/a.ts(3,5): error TS2322: Type 'number' is not assignable to type 'string'.\nsrc/a.ts(9,1): error TS2322: Type 'number' is not assignable to type 'string'.\n",
      ),
    ).toEqual({
      runner: 'tsc',
      failed: 2,
      failures: [
        "src/a.ts: TS2322 Type 'number' is not assignable to type 'string'.",
        "src/a.ts: TS2322 Type 'number' is not assignable to type 'string'.",
      ],
      diagnostics: true,
    });
    expect(
      parseCheckOutput("src/b.ts:1:7 - error TS2304: Cannot find name 'x'.\n\n1 const y = x;\n\nFound 1 error in src/b.ts:1\n")?.failures,
    ).toEqual(["src/b.ts: TS2304 Cannot find name 'x'."]);
  });

  it('eslint (stylish)', () => {
    const output =
      "\n/repo/src/a.js\n  1:7  error  'unused' is assigned a value but never used  no-unused-vars\n  2:1  warning  Unexpected console statement  no-console\n\n✖ 2 problems (1 error, 1 warning)\n";
    expect(parseCheckOutput(output)).toEqual({
      runner: 'eslint',
      failed: 1,
      failures: ["/repo/src/a.js: no-unused-vars 'unused' is assigned a value but never used"],
      diagnostics: true,
    });
  });

  it('colour codes are no obstacle; output of no known runner gives nothing', () => {
    expect(
      parseCheckOutput('\u001b[31mFAILED\u001b[0m tests/t.py::test_x - boom\n\u001b[31m=== 1 failed in 0.01s ===\u001b[0m\n')?.failures,
    ).toEqual(['tests/t.py::test_x']);
    expect(parseCheckOutput('make: *** [Makefile:2: test] Error 1\n')).toBeUndefined();
  });
});
