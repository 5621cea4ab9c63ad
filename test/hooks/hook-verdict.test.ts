/**
 * What a hook's run means, by Claude Code's documented exit codes and JSON output, including output that
 * is garbage, cut, or holds fields this engine does not know.
 */
import { describe, expect, it } from 'vitest';
import type { HookRunResult } from '../../src/engine/hooks/hook-process.js';
import { hookVerdict, maxHookTextBytes } from '../../src/engine/hooks/hook-verdict.js';

const ran = (result: Partial<HookRunResult>): HookRunResult => ({
  exitCode: 0,
  stdout: '',
  stderr: '',
  stdoutCut: false,
  durationMs: 120,
  ...result,
});

describe('exit codes', () => {
  it('exit 2 blocks with stderr as the reason; other codes and timeouts block nothing', () => {
    expect(hookVerdict('PreToolUse', ran({ exitCode: 2, stderr: 'No edits under generated/.\n' }))).toMatchObject({
      block: 'No edits under generated/.',
      ending: 'exit 2 in 0.1 s: blocks',
    });
    expect(hookVerdict('PreToolUse', ran({ exitCode: 2 })).block).toBe('the hook gave no reason');
    const one = hookVerdict('PreToolUse', ran({ exitCode: 1, stderr: 'BLOCKED (but exit 1)\nmore' }));
    expect(one.block).toBeUndefined();
    expect(one.ending).toBe('exit 1 in 0.1 s, not blocking (only exit 2 blocks): BLOCKED (but exit 1)');
    expect(hookVerdict('Stop', ran({ exitCode: null, ended: 'timeout', durationMs: 60_000 })).ending).toBe(
      'timed out after 60.0 s and was ended, not blocking',
    );
    expect(hookVerdict('Stop', ran({ exitCode: null, error: 'no scratch copy' })).ending).toBe(
      'could not run (no scratch copy), not blocking',
    );
  });

  it("exit 0's plain stdout is context for UserPromptSubmit and a message for the user elsewhere", () => {
    expect(hookVerdict('UserPromptSubmit', ran({ stdout: 'Sprint ends Friday.\n' })).context).toBe('Sprint ends Friday.');
    expect(hookVerdict('PostToolUse', ran({ stdout: 'formatted\n' }))).toMatchObject({ message: 'formatted', problems: [] });
  });
});

describe('JSON output', () => {
  it('PreToolUse: deny blocks, ask asks, allow only lets it go on; the old decision field too', () => {
    const specific = (permissionDecision: string) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, permissionDecisionReason: 'why' } });
    expect(hookVerdict('PreToolUse', ran({ stdout: specific('deny') })).block).toBe('why');
    expect(hookVerdict('PreToolUse', ran({ stdout: specific('ask') })).ask).toBe('why');
    const allow = hookVerdict('PreToolUse', ran({ stdout: specific('allow') }));
    expect(allow.block).toBeUndefined();
    expect(allow.problems[0]).toContain('does not skip the approval a command needs');
    expect(hookVerdict('PreToolUse', ran({ stdout: JSON.stringify({ decision: 'block', reason: 'old style' }) })).block).toBe('old style');
  });

  it('decision block, additionalContext, continue false, systemMessage and suppressOutput', () => {
    expect(hookVerdict('Stop', ran({ stdout: JSON.stringify({ decision: 'block', reason: 'Run the tests.' }) })).block).toBe(
      'Run the tests.',
    );
    expect(
      hookVerdict(
        'PostToolUse',
        ran({ stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'Lint: 2 warnings' } }) }),
      ).context,
    ).toBe('Lint: 2 warnings');
    expect(hookVerdict('PreToolUse', ran({ stdout: JSON.stringify({ continue: false, stopReason: 'Freeze.' }) })).end).toBe('Freeze.');
    expect(hookVerdict('Stop', ran({ stdout: JSON.stringify({ systemMessage: 'Saved.' }) })).message).toBe('Saved.');
    expect(hookVerdict('Stop', ran({ stdout: JSON.stringify({ systemMessage: 'Saved.', suppressOutput: true }) })).message).toBeUndefined();
  });

  it('names what it does not understand and ignores garbage, broken or cut JSON', () => {
    expect(
      hookVerdict('PreToolUse', ran({ stdout: JSON.stringify({ decison: 'block', hookSpecificOutput: { updatedInput: {} } }) })).problems,
    ).toEqual(['not understood, ignored: decison, hookSpecificOutput.updatedInput']);
    expect(hookVerdict('PreToolUse', ran({ stdout: '{"decision": "bl' })).problems).toEqual([
      'its output looks like JSON but is ignored: it is not valid JSON',
    ]);
    expect(hookVerdict('PreToolUse', ran({ stdout: '{"decision": "bl', stdoutCut: true })).problems).toEqual([
      'its output looks like JSON but is ignored: it was cut at 64 KiB',
    ]);
    expect(hookVerdict('Stop', ran({ stdout: JSON.stringify({ decision: 'maybe' }) })).problems).toEqual([
      'decision "maybe" not understood; ignored',
    ]);
    expect(hookVerdict('Stop', ran({ stdout: '\u0000\u0001binary' })).message).toBe('\u0000\u0001binary');
  });

  it('cuts a reason longer than the limit, with a note', () => {
    const block = hookVerdict('PreToolUse', ran({ exitCode: 2, stderr: 'x'.repeat(maxHookTextBytes + 10) })).block ?? '';
    expect(block).toContain(`[cut: the hook wrote ${maxHookTextBytes + 10} bytes; the first ${maxHookTextBytes} are given]`);
    expect(block.length).toBeLessThan(maxHookTextBytes + 100);
  });
});
