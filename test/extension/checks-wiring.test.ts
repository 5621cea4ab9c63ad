/**
 * The repository's checks in VS Code (issue 40), from the extension's side: a run that ends with
 * proposals has its checks run on exactly those proposals, the sidebar and the review's line above each
 * file say "running" then the verdict; rejecting a hunk or saving an edit of the proposal runs them again
 * on what is proposed now (once quiet); Run Checks Again runs them at once; `agentTeam.checks` off starts
 * nothing by itself. The engine's checks service (the checks-engine slice) is
 * replaced by a recorder whose verdicts the test hands out; everything else is the real extension.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckDiscovery, ChecksVerdictDetail, RunOnProposalsRequest } from '../../src/engine/checks/types.js';
import { readSettings } from '../../src/extension/configuration.js';
import { EngineSession } from '../../src/extension/engine-session.js';
import type { ChecksService } from '../../src/extension/checks/run-checks.js';
import { proposalUri } from '../../src/extension/review/proposal-uri.js';
import type { HostMessage, RunChecks } from '../../src/shared/protocol.js';
import { type MockToolCall, textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import type { CodeLens } from './support/fake-basics.js';
import type { FakeTextDocument } from './support/fake-documents.js';
import { fake, workspace } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const original = [
  'export const add = (a: number, b: number) => a + b;',
  'export const one = 1;',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  'export const two = 2;',
  '',
].join('\n');
const breakAdd: MockToolCall = { name: 'Edit', input: { file_path: 'src/math.ts', old_string: 'a + b', new_string: 'a - b' } };
const renameTwo: MockToolCall = { name: 'Edit', input: { file_path: 'src/math.ts', old_string: 'two = 2', new_string: 'deux = 2' } };

/** The engine's service as a recorder: each call waits for the verdict the test gives it. */
class RecordingChecks implements ChecksService {
  readonly requests: RunOnProposalsRequest[] = [];
  readonly reruns: string[] = [];
  private readonly waiting: Array<(verdict: ChecksVerdictDetail) => void> = [];
  private readonly listeners = new Set<(verdict: ChecksVerdictDetail) => void>();

  async discover(): Promise<CheckDiscovery> {
    return {
      checks: [{ name: 'npm test', command: 'npm test', source: 'package.json', sourceKind: 'package-json' }],
      skipped: [],
      fromChecksFile: false,
    };
  }

  runOnProposals(request: RunOnProposalsRequest): Promise<ChecksVerdictDetail> {
    this.requests.push(request);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Run Checks Again on the proposals of the last verdict: the engine runs the last request anew. */
  rerun(runId: string, signal?: AbortSignal): Promise<ChecksVerdictDetail | undefined> {
    this.reruns.push(runId);
    const last = this.requests.findLast((request) => request.runId === runId);
    return last ? this.runOnProposals({ ...last, ...(signal ? { signal } : {}) }) : Promise.resolve(undefined);
  }

  onVerdict(listener: (verdict: ChecksVerdictDetail) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Answers the oldest call still waiting. */
  answer(verdict: ChecksVerdictDetail): void {
    this.waiting.shift()!(verdict);
    for (const listener of this.listeners) listener(verdict);
  }
}

const world = useExtensionWorld({ files: { 'src/math.ts': original } });
let checks: RecordingChecks;

beforeEach(() => {
  checks = new RecordingChecks();
  vi.spyOn(EngineSession.prototype, 'checksService').mockReturnValue(checks);
});
afterEach(() => vi.restoreAllMocks());

function verdictOf(runId: string, newFailures: string[]): ChecksVerdictDetail {
  const summary =
    newFailures.length > 0
      ? `checks: 1 with new failures: npm test (${newFailures.length} new failure: ${newFailures.join(', ')})`
      : 'checks: 1 passed';
  return {
    runId,
    taskIds: [runId],
    changedFiles: ['src/math.ts'],
    hasNewFailures: newFailures.length > 0,
    summary,
    results: [
      {
        name: 'npm test',
        status: newFailures.length > 0 ? 'failed' : 'passed',
        passed: 3,
        failed: newFailures.length,
        newFailures,
        fixed: [],
        durationMs: 1200,
      },
    ],
  };
}

async function propose(...toolCalls: MockToolCall[]): Promise<string> {
  world.server.enqueue(toolCallTurn(toolCalls), textTurn('Proposed.'));
  const taskId = (await world.extension.execute('agentTeam.delegate', 'Change the math', { role: 'refactorer' })) as string;
  await fake.waitForMessage((message) => message.message.startsWith('Agent Team finished'));
  return taskId;
}

async function openSidebar() {
  const view = await fake.resolveView();
  view.send({ type: 'ready' });
  await view.waitFor((message) => (message as HostMessage).type === 'snapshot');
  return view;
}

const lastChecks = (posted: unknown[]): RunChecks | undefined =>
  posted
    .flatMap((message) => ((message as HostMessage).type === 'checks' ? (message as Extract<HostMessage, { type: 'checks' }>).runs : []))
    .at(-1);

async function lensTitles(taskId: string): Promise<string[]> {
  const document = (await workspace.openTextDocument(proposalUri({ taskId, path: 'src/math.ts', side: 'proposed' }))) as FakeTextDocument;
  const [registered] = fake.state.codeLensProviders.filter((entry) => entry.selector.scheme === document.uri.scheme);
  return ((await registered!.provider.provideCodeLenses(document)) as CodeLens[]).map((lens) => lens.command!.title);
}

describe('checks on proposals in VS Code', () => {
  it('runs when the run ends with proposals; the sidebar and the review say running, then the verdict', async () => {
    const view = await openSidebar();
    const runId = await propose(breakAdd);
    expect(checks.requests).toHaveLength(0); // not before the run has been quiet for a moment
    await world.extension.clock.advance(1_000);
    expect(checks.requests).toHaveLength(1);
    expect(checks.requests[0]).toMatchObject({
      runId,
      taskIds: [runId],
      proposals: [{ path: 'src/math.ts', content: original.replace('a + b', 'a - b') }],
    });
    expect(lastChecks(view.posted)).toMatchObject({ runId, state: 'running' });
    expect((await lensTitles(runId))[0]).toBe('$(sync~spin) Checks running\u2026');

    checks.answer(verdictOf(runId, ['math › adds']));
    await vi.waitFor(() => expect(lastChecks(view.posted)).toMatchObject({ runId, state: 'done', hasNewFailures: true }));
    expect(lastChecks(view.posted)!.results[0]).toMatchObject({ name: 'npm test', newFailures: ['math › adds'], newFailureCount: 1 });
    const titles = await lensTitles(runId);
    expect(titles.slice(0, 2)).toEqual(['$(error) Checks: 1 new failure: math › adds', 'Run Checks Again']);
    expect(titles.slice(2)).toEqual(['Accept Change', 'Reject Change']);
    // A new sidebar (shown again) gets every run's checks right after its snapshot.
    const again = await openSidebar();
    await again.waitFor((message) => (message as HostMessage).type === 'checks');
  });

  it('runs again on what is proposed now after a hunk is rejected or the proposal edited; Run Checks Again runs at once', async () => {
    const runId = await propose(breakAdd, renameTwo);
    await world.extension.clock.advance(1_000);
    checks.answer(verdictOf(runId, ['math › adds']));
    const host = await world.extension.ready();
    const [breaking] = host.changes.get(runId)!.file('src/math.ts')!.hunks;
    await world.extension.execute('agentTeam.rejectHunk', { taskId: runId, path: 'src/math.ts', hunkId: breaking!.id });
    await world.extension.clock.advance(1_000);
    expect(checks.requests).toHaveLength(2);
    expect(checks.requests[1]!.proposals).toEqual([{ path: 'src/math.ts', content: original.replace('two = 2', 'deux = 2') }]);
    checks.answer(verdictOf(runId, []));

    const document = (await workspace.openTextDocument(
      proposalUri({ taskId: runId, path: 'src/math.ts', side: 'proposed' }),
    )) as FakeTextDocument;
    const mine = document.getText().replace('deux = 2', 'deux = 2; // by hand');
    document.setText(mine);
    await document.save();
    await world.extension.clock.advance(1_000);
    expect(checks.requests).toHaveLength(3);
    expect(checks.requests[2]!.proposals).toEqual([{ path: 'src/math.ts', content: mine }]);

    // Run Checks Again while one is running: it starts at once and cancels the older.
    await Promise.race([world.extension.execute('agentTeam.runChecks', runId), world.extension.clock.advance(0)]);
    await vi.waitFor(() => expect(checks.requests).toHaveLength(4));
    expect(checks.requests[2]!.signal!.aborted).toBe(true);
    expect(checks.requests[3]).toMatchObject({ runId, proposals: [{ path: 'src/math.ts', content: mine }] });
    // Nothing changed since: the engine is asked to run them anew (its cached verdict would say the same).
    expect(checks.reruns).toEqual([runId]);
  });

  it('shows nothing for a workspace without checks: no running state, no line above the file', async () => {
    const view = await openSidebar();
    vi.spyOn(checks, 'discover').mockResolvedValue({ checks: [], skipped: [], fromChecksFile: false });
    const runId = await propose(breakAdd);
    await world.extension.clock.advance(1_000);
    await vi.waitFor(() => expect(checks.discover).toHaveBeenCalled());
    await world.extension.clock.advance(0);
    expect(checks.requests).toHaveLength(0);
    expect(lastChecks(view.posted)).toBeUndefined();
    expect((await lensTitles(runId))[0]).toBe('Accept Change');
  });

  it("starts nothing by itself with agentTeam.checks off in the workspace's settings; Run Checks Again still runs", async () => {
    await world.reactivate({ files: { 'src/math.ts': original }, workspaceSettings: { 'agentTeam.checks': false } });
    const runId = await propose(breakAdd);
    await world.extension.clock.advance(5_000);
    expect(checks.requests).toHaveLength(0);
    const running = world.extension.execute('agentTeam.runChecks', runId);
    await vi.waitFor(() => expect(checks.requests).toHaveLength(1));
    checks.answer(verdictOf(runId, []));
    await running;
    expect(checks.reruns).toEqual([]); // the first verdict: nothing to run anew
    expect(fake.state.messages.filter((message) => message.message.includes('nothing to check'))).toEqual([]);
  });

  it("reads agentTeam.checks (off in any scope wins) and agentTeam.fixUntilGreen (the user's own, 0 to 5), as the engine is handed them", () => {
    const read = (user: Record<string, unknown>, folder: Record<string, unknown>) => {
      fake.state.settings.global.clear();
      fake.state.settings.workspace.clear();
      for (const [key, value] of Object.entries(user)) fake.state.settings.global.set(`agentTeam.${key}`, value);
      for (const [key, value] of Object.entries(folder)) fake.state.settings.workspace.set(`agentTeam.${key}`, value);
      const { checks: on, fixUntilGreen } = readSettings(true);
      return { on, fixUntilGreen };
    };
    expect(read({}, {})).toEqual({ on: true, fixUntilGreen: 0 });
    expect(read({ checks: false }, { checks: true })).toMatchObject({ on: false });
    expect(read({}, { checks: false })).toMatchObject({ on: false });
    expect(read({ fixUntilGreen: 2 }, {})).toMatchObject({ fixUntilGreen: 2 });
    // A folder must not spend the user's money on more rounds; nor may anyone ask for more than 5.
    expect(read({}, { fixUntilGreen: 3 })).toMatchObject({ fixUntilGreen: 0 });
    expect(read({ fixUntilGreen: 50 }, {})).toMatchObject({ fixUntilGreen: 5 });
    expect(read({ fixUntilGreen: 1.5 }, {})).toMatchObject({ fixUntilGreen: 0 });
  });
});
