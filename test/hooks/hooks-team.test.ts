/**
 * Hooks through the team, with real processes in real scratch copies (and the OS sandbox where there is
 * one); only the models are scripted and the clock injected. What a hook gets on stdin, what it can see,
 * its timeout, and each decision Claude Code documents: deny, ask, continue: false, block on Stop (at most
 * so many times in a row), SubagentStop by role, PostToolUse feedback; none in an untrusted folder.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserChannel } from '../../src/engine/conversation/user-channel.js';
import { maxStopHookContinuations } from '../../src/engine/hooks/hooks-capability.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { lastMessageText } from '../delegation/team-harness.js';
import { type BashWorld, type BashWorldOptions, createBashWorld, processesMarked } from '../commands/bash-support.js';

const { toolCall } = ScriptedModel;
let world: BashWorld | undefined;

const homes: string[] = [];

afterEach(async () => {
  await world?.dispose();
  world = undefined;
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

async function hookWorld(hooks: Record<string, unknown>, options: Partial<BashWorldOptions> = {}): Promise<BashWorld> {
  const created = await createBashWorld({ files: { 'a.txt': 'on disk\n' }, hooks: {}, ...options });
  await mkdir(path.join(created.root, '.claude'), { recursive: true });
  await writeFile(path.join(created.root, '.claude', 'settings.json'), JSON.stringify({ hooks }));
  world = created;
  return created;
}

const one = (event: string, matcher: string, command: string, extra: Record<string, unknown> = {}) => ({
  [event]: [{ matcher, hooks: [{ type: 'command', command, ...extra }] }],
});
const notices = (w: BashWorld, taskId: string) =>
  w.taskManager.transcript(taskId).flatMap((entry) => (entry.type === 'notice' ? [entry.text] : []));

describe('what a hook gets and sees', () => {
  it("gets the event's JSON on stdin, runs in the scratch copy, and sees the task's proposals", async () => {
    const w = await hookWorld(one('PreToolUse', 'Read', 'cat >&2; echo >&2; echo "copy says: $(cat a.txt)" >&2; exit 2'));
    w.model('refactorer').enqueue(
      [toolCall('Write', { file_path: 'a.txt', content: 'proposed\n' })],
      [toolCall('Read', { file_path: 'a.txt' })],
      'Done.',
    );
    const started = await w.team.delegate({ role: 'refactorer', prompt: 'Look' });
    const refusal = lastMessageText(w.model('refactorer').calls[2]!.request);
    const input = JSON.parse(refusal.slice(refusal.indexOf('{'), refusal.indexOf('}\n') + 1)) as Record<string, unknown>;
    expect(input).toMatchObject({
      session_id: started.task.id,
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: 'a.txt' },
      permission_mode: 'default',
    });
    expect(input.cwd).not.toBe(w.root);
    expect(refusal).toContain('copy says: proposed');
  });

  it.skipIf(process.platform !== 'linux')("cannot read the user's folder in the sandbox, only the copy", async () => {
    const w = await hookWorld({});
    await writeFile(
      path.join(w.root, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: one(
          'PreToolUse',
          '*',
          `echo "real: $(cat '${w.root}/a.txt' 2>&1)" >&2; echo "copy: $(cat "$CLAUDE_PROJECT_DIR/a.txt")" >&2; exit 2`,
        ),
      }),
    );
    const state = await w.commands.sandbox();
    w.model('reviewer').enqueue([toolCall('Read', { file_path: 'a.txt' })], 'Done.');
    await w.team.delegate({ role: 'reviewer', prompt: 'Look' });
    const refusal = lastMessageText(w.model('reviewer').calls[1]!.request);
    expect(state.mode).toBe('sandbox');
    expect(refusal).toContain('copy: on disk');
    expect(refusal).toContain('real: cat:');
    expect(refusal).not.toContain('real: on disk');
  });

  it.skipIf(process.platform === 'win32')('a hook that hangs is ended at its timeout, leaves no process, and blocks nothing', async () => {
    const clock = new ManualClock();
    const marker = `agent-team-hook-${process.pid}-${Date.now()}`;
    const w = await hookWorld(
      one('PreToolUse', 'Read', `a=${marker.slice(0, 10)}; b=${marker.slice(10)}; exec bash -c 'sleep 100; :' "$a$b"`, { timeout: 5 }),
      { clock },
    );
    w.model('reviewer').enqueue([toolCall('Read', { file_path: 'a.txt' })], 'Done.');
    const started = await w.team.delegate({ role: 'reviewer', prompt: 'Look', mode: 'background' });
    await expect.poll(() => processesMarked(marker).length, { timeout: 10_000 }).toBe(1);
    await clock.advance(5_000);
    await w.taskManager.wait(started.task.id);
    expect(lastMessageText(w.model('reviewer').calls[1]!.request)).toContain('on disk');
    expect(notices(w, started.task.id).join('\n')).toContain('timed out after 5.0 s and was ended, not blocking');
    expect(processesMarked(marker)).toEqual([]);
  });
});

describe('decisions', () => {
  it('"continue": false refuses the call and ends the run, telling the user why', async () => {
    const w = await hookWorld(one('PreToolUse', '', `echo '{"continue": false, "stopReason": "A release freeze is on."}'`));
    w.model('reviewer').enqueue([toolCall('Read', { file_path: 'a.txt' })], 'Never asked.');
    const started = await w.team.delegate({ role: 'reviewer', prompt: 'Look' });
    expect(w.model('reviewer').calls).toHaveLength(1);
    expect(started.task.status).toBe('completed');
    expect(notices(w, started.task.id).at(-1)).toBe('A release freeze is on.');
  });

  it('"ask" puts the call to the user: yes runs it, anything else refuses it', async () => {
    const answers = ['yes', 'no'];
    const questions: string[] = [];
    const userChannel: UserChannel = { ask: async (question) => (questions.push(question.text), answers.shift()) };
    const w = await hookWorld(
      one(
        'PreToolUse',
        'Read',
        `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "a.txt is sensitive"}}'`,
      ),
      { hooks: { userChannel } },
    );
    w.model('reviewer').enqueue([toolCall('Read', { file_path: 'a.txt' })], [toolCall('Read', { file_path: 'a.txt' })], 'Done.');
    await w.team.delegate({ role: 'reviewer', prompt: 'Look' });
    expect(questions[0]).toContain('A hook asks whether this Read call may run: a.txt is sensitive');
    expect(lastMessageText(w.model('reviewer').calls[1]!.request)).toContain('on disk');
    expect(lastMessageText(w.model('reviewer').calls[2]!.request)).toContain('Not run: the user did not allow this Read call');
  });

  it(`a Stop hook that always blocks sends the agent back ${maxStopHookContinuations} times, then lets it finish and says so`, async () => {
    const w = await hookWorld({ Stop: [{ hooks: [{ type: 'command', command: 'echo "Not yet." >&2; exit 2' }] }] });
    w.model('reviewer').enqueue(...Array.from({ length: maxStopHookContinuations + 1 }, (_, index) => `Answer ${index + 1}.`));
    const started = await w.team.delegate({ role: 'reviewer', prompt: 'Look' });
    expect(w.model('reviewer').calls).toHaveLength(maxStopHookContinuations + 1);
    expect(lastMessageText(w.model('reviewer').calls[1]!.request)).toContain('does not let you finish yet:\nNot yet.');
    expect(started.task.output).toBe(`Answer ${maxStopHookContinuations + 1}.`);
    expect(notices(w, started.task.id).at(-1)).toContain(`the agent finishes anyway after ${maxStopHookContinuations} times in a row`);
  });

  it("SubagentStop runs for a subagent whose role the matcher names, with its id and role; Stop only for the run's root", async () => {
    const w = await hookWorld({
      SubagentStop: [{ matcher: 'reviewer', hooks: [{ type: 'command', command: 'cat >&2; exit 1' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'exit 0' }] }],
    });
    w.model('coordinator').enqueue(
      [toolCall('Agent', { subagent_type: 'reviewer', description: 'Review', prompt: 'Review a.txt' })],
      'All reviewed.',
    );
    w.model('reviewer').enqueue('Looks fine.');
    const started = await w.team.delegate({ prompt: 'Review' });
    const child = w.taskManager.children(started.task.id)[0]!;
    const childNotices = notices(w, child.id).join('\n');
    expect(childNotices).toContain('Hook SubagentStop [reviewer] `cat >&2; exit 1` (.claude/settings.json): exit 1 in');
    expect(childNotices).toContain(`"agent_id":"${child.id}"`);
    expect(childNotices).toContain('"agent_type":"reviewer"');
    expect(childNotices).not.toContain('Hook Stop');
    expect(notices(w, started.task.id).join('\n')).toContain('Hook Stop `exit 0`');
  });

  it("a PostToolUse hook's block reason reaches the agent with its next turn", async () => {
    const w = await hookWorld(one('PostToolUse', 'Read', `echo '{"decision": "block", "reason": "Cite the line numbers you read."}'`));
    w.model('reviewer').enqueue([toolCall('Read', { file_path: 'a.txt' })], 'Done.');
    await w.team.delegate({ role: 'reviewer', prompt: 'Look' });
    expect(lastMessageText(w.model('reviewer').calls[1]!.request)).toContain('on your Read call says:\nCite the line numbers you read.');
  });
});

describe("the folder's hooks and the user's", () => {
  /** A folder hook and a user's hook that each refuse every call, saying whose they are. */
  async function twoHooks(hooks: BashWorldOptions['hooks']): Promise<BashWorld> {
    const userHome = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
    homes.push(userHome);
    await mkdir(path.join(userHome, '.claude'), { recursive: true });
    await writeFile(
      path.join(userHome, '.claude', 'settings.json'),
      JSON.stringify({ hooks: one('PreToolUse', '*', 'echo user-hook >&2; exit 2') }),
    );
    return hookWorld(one('PreToolUse', '*', 'echo folder-hook >&2; exit 2'), { hooks, userHome });
  }

  it("in an untrusted folder the user's own hook runs and the folder's does not, and the transcript says so", async () => {
    const w = await twoHooks({ allowed: () => false });
    w.model('reviewer').enqueue([toolCall('Read', { file_path: 'a.txt' })], 'Done.');
    const started = await w.team.delegate({ role: 'reviewer', prompt: 'Look' });
    const refusal = lastMessageText(w.model('reviewer').calls[1]!.request);
    expect(refusal).toContain('user-hook');
    expect(refusal).not.toContain('folder-hook');
    expect(notices(w, started.task.id).join('\n')).toContain('Not run: 1 hook of .claude/settings.json: this folder is not trusted');
  });

  it("in a trusted folder, a hook of its settings the user did not trust (added since) does not run; the user's does", async () => {
    const w = await twoHooks({ allowed: () => true, allowsHook: () => false });
    w.model('reviewer').enqueue([toolCall('Read', { file_path: 'a.txt' })], 'Done.');
    const started = await w.team.delegate({ role: 'reviewer', prompt: 'Look' });
    const refusal = lastMessageText(w.model('reviewer').calls[1]!.request);
    expect(refusal).toContain('user-hook');
    expect(refusal).not.toContain('folder-hook');
    expect(notices(w, started.task.id).join('\n')).toContain(
      'Not run: 1 hook of .claude/settings.json: changed since the user trusted this folder',
    );
  });

  it("without a sandbox none runs, the user's neither, and the transcript says why", async () => {
    const w = await twoHooks({ sandboxRefusal: async () => 'there is no OS sandbox here (test)' });
    w.model('reviewer').enqueue([toolCall('Read', { file_path: 'a.txt' })], 'Done.');
    const started = await w.team.delegate({ role: 'reviewer', prompt: 'Look' });
    expect(lastMessageText(w.model('reviewer').calls[1]!.request)).toContain('on disk');
    expect(notices(w, started.task.id).join('\n')).toMatch(/Not run: 2 hooks \(.*\): there is no OS sandbox here \(test\)/);
  });
});

describe('when no hook runs', () => {
  it.each([
    ['the folder is not trusted', { allowed: () => false }],
    ['the user turned hooks off', { enabled: () => false }],
  ])('none runs where %s', async (_why, hooks) => {
    const w = await hookWorld(one('PreToolUse', '*', 'exit 2'), { hooks });
    w.model('reviewer').enqueue([toolCall('Read', { file_path: 'a.txt' })], 'Done.');
    const started = await w.team.delegate({ role: 'reviewer', prompt: 'Look' });
    expect(lastMessageText(w.model('reviewer').calls[1]!.request)).toContain('on disk');
    expect(notices(w, started.task.id).join('\n')).not.toContain('Hook');
  });
});
