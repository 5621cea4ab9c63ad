/**
 * One definition per shape: the task history's lenient schema and the sidebar protocol's strict one are
 * built from the engine's own definitions, so they accept exactly what the engine produces. The snapshots
 * here come from a real task manager and the transcript from a real agent run; the coverage checks make
 * sure they exercise every field the definitions name, so a field added to a definition (and produced by
 * the engine) is tested by these same assertions in both variants.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import { transcriptEntrySchemas, type TranscriptEntry } from '../../src/engine/agent/transcript-entry.js';
import { type StopReason, stopReasonSchemas } from '../../src/engine/stop-reason.js';
import { parsePersistedHistory } from '../../src/engine/tasks/history-schema.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { taskSnapshotSchemas, taskStatusSchema } from '../../src/engine/tasks/task-snapshot.js';
import { InMemoryTaskStore } from '../../src/engine/tasks/task-store.js';
import { type TaskSnapshot, isTerminal } from '../../src/engine/tasks/types.js';
import type { StartTaskOptions } from '../../src/engine/tasks/work.js';
import { ManualClock } from '../../src/engine/testing/manual-clock.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import {
  type ProtocolTask,
  type ProtocolTranscriptEntry,
  type TaskDetail,
  parseHostMessage,
  protocolDataSchemas,
  toProtocolTask,
  toTaskDetail,
} from '../../src/shared/protocol.js';
import { echoTool, run } from '../agent/support.js';
import { StagedWork } from './support/staged-work.js';

function task(work: StagedWork, overrides: Partial<StartTaskOptions> = {}): StartTaskOptions {
  return { role: 'reviewer', description: 'Review the change', prompt: 'Review it', mode: 'background', work: work.work, ...overrides };
}

/** Every snapshot a real manager emits while its tasks complete, fail and stop for every reason. */
async function engineSnapshots(): Promise<TaskSnapshot[]> {
  const store = new InMemoryTaskStore();
  const priceOf = (model: string | undefined) => (model === 'test/priced' ? { input: 1, output: 1 } : undefined);
  const manager = new TaskManager({ clock: new ManualClock(1_700_000_000_000), store, maxConcurrent: 32, onWarning: () => {}, priceOf });
  const snapshots: TaskSnapshot[] = [];
  manager.onEvent((event) => {
    if ('task' in event) snapshots.push(event.task);
  });
  const staged = async (overrides: Partial<StartTaskOptions> = {}) => {
    const work = new StagedWork({ onAbort: 'return', abortOutput: 'partial' });
    await manager.start(task(work, overrides));
    return { work, context: await work.started };
  };

  const completed = await staged();
  completed.context.setModel('scripted/test-model');
  completed.context.reportUsage({ inputTokens: 12, outputTokens: 3 });
  // A failover: the rest of its work on another model, counted by model (`usageByModel`).
  completed.context.reportContext?.(16, 200_000);
  completed.context.setModel('scripted/fallback-model');
  completed.context.reportUsage({ inputTokens: 4, outputTokens: 1 });
  completed.context.appendTranscript({ type: 'text', text: 'looks good' });
  // Its plan (TodoWrite): the list rides on the snapshot.
  completed.context.setTodos?.([{ content: 'Review the change', status: 'completed', activeForm: 'Reviewing the change' }]);
  completed.work.complete('approved');

  await staged().then(({ work }) => work.fail('could not read the file', 'half'));

  const stoppedParent = await staged(); // t3, stopped by the user; its child t4 because its parent was
  await staged({ parentId: stoppedParent.context.taskId, ancestorTasks: ['Rewrite the parser', 'Review it'] });
  await manager.stop(stoppedParent.context.taskId);

  const stoppedByAgent = await staged();
  await manager.stop(stoppedByAgent.context.taskId, { kind: 'stopped-by-agent', taskId: completed.context.taskId });

  const overBudget = await staged({ maxTokens: 10 }); // the tree goes over its budget: the child stops
  const budgetChild = await staged({ parentId: overBudget.context.taskId });
  budgetChild.context.reportUsage({ inputTokens: 20, outputTokens: 5 });

  const overMoney = await staged({ maxUsd: 0.01 }); // a money budget: $0.02 at the model's price stops it
  overMoney.context.setModel('test/priced');
  overMoney.context.reportUsage({ inputTokens: 20_000, outputTokens: 0, cachedInputTokens: 5_000 });

  await staged({ parentId: completed.context.taskId, followUp: true }); // a follow-up of the finished one

  // Two tasks question the user at once: the second waits behind the first ("queued for you").
  const asking = await staged();
  asking.context.waitForUser(() => new Promise<string>(() => {})).catch(() => undefined);
  const queuedAsker = await staged();
  queuedAsker.context.waitForUser(() => Promise.resolve('an answer')).catch(() => undefined);

  await staged(); // still running at shutdown
  await manager.close();
  for (const snapshot of manager.list()) snapshots.push(snapshot);

  // A task running when the process died comes back from the history as interrupted.
  const crashedStore = new InMemoryTaskStore();
  const crashed = new TaskManager({ clock: new ManualClock(), store: crashedStore });
  await crashed.start(task(new StagedWork()));
  await crashed.flush();
  const reloaded = new TaskManager({ clock: new ManualClock(1_800_000_000_000), store: crashedStore });
  await reloaded.load();
  snapshots.push(...reloaded.list());
  await reloaded.close();
  return snapshots;
}

/** Every kind of transcript entry, from a real agent run (text, tool call and result, notices). */
async function engineTranscript(): Promise<TranscriptEntry[]> {
  const model = new ScriptedModel([[ScriptedModel.toolCall('Echo', { text: 'a' })], 'Done.']);
  const notices = [['background task t3 completed']];
  const result = await run(model, { tools: [echoTool()], takeNotices: () => notices.shift() ?? [] });
  return result.transcript;
}

const roundTrip = <Value>(value: Value): Value => JSON.parse(JSON.stringify(value)) as Value;
const definedKeys = (value: object) =>
  Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .map(([key]) => key);
const sorted = (keys: Iterable<string>) => [...new Set(keys)].sort();

describe('TaskSnapshot: one definition, read by the history and the sidebar', () => {
  it('the snapshots exercise every field and every stop reason the definition names', async () => {
    const snapshots = await engineSnapshots();
    expect(sorted(snapshots.flatMap(definedKeys))).toEqual(sorted(Object.keys(taskSnapshotSchemas.strict.shape)));
    const kinds = stopReasonSchemas.strict.options.map((option) => option.shape.kind.value);
    expect(sorted(snapshots.flatMap((snapshot) => (snapshot.stopReason ? [snapshot.stopReason.kind] : [])))).toEqual(sorted(kinds));
    // Every end status, `interrupted` included (shutdown, and a crash found at load).
    const ended = taskStatusSchema.options.filter((status) => isTerminal(status));
    expect(sorted(ended)).toEqual(['completed', 'failed', 'interrupted', 'stopped']);
    expect(sorted(snapshots.map((snapshot) => snapshot.status).filter((status) => isTerminal(status)))).toEqual(sorted(ended));
  });

  it('both variants name the same fields, and the protocol splits them between the tree and the detail', () => {
    const fields = sorted(Object.keys(taskSnapshotSchemas.strict.shape));
    expect(sorted(Object.keys(taskSnapshotSchemas.lenient.shape))).toEqual(fields);
    // The detail also says how a command the task waits on would run: not a field of the task.
    const { taskDetailSchema, taskSchema } = protocolDataSchemas();
    const detailFields = Object.keys(taskDetailSchema.shape).filter((key) => key !== 'taskId' && key !== 'commandApproval');
    expect(sorted([...Object.keys(taskSchema.shape), ...detailFields])).toEqual(fields);
  });

  it('the history reads back every snapshot the engine produces, whole', async () => {
    const snapshots = await engineSnapshots();
    for (const snapshot of snapshots) expect(taskSnapshotSchemas.lenient.parse(roundTrip(snapshot))).toEqual(snapshot);
    const history = { version: 1, tasks: snapshots.map((snapshot) => ({ task: snapshot, transcript: [], droppedTranscriptEntries: 0 })) };
    const warnings: string[] = [];
    expect(parsePersistedHistory(roundTrip(history), (message) => warnings.push(message))).toEqual(history);
    expect(warnings).toEqual([]);
  });

  it('the sidebar accepts every snapshot the engine produces, and its tree task plus detail is the whole snapshot', async () => {
    const snapshots = await engineSnapshots();
    const tasks = snapshots.map(toProtocolTask);
    expect(parseHostMessage(roundTrip({ type: 'task-upsert', now: 1, tasks })).reason).toBeUndefined();
    for (const snapshot of snapshots) {
      const { taskId, ...detail } = toTaskDetail(snapshot);
      expect(parseHostMessage({ type: 'task-detail', taskId, ...detail }).reason).toBeUndefined();
      expect({ ...toProtocolTask(snapshot), ...detail }).toEqual(snapshot);
      expect(taskSnapshotSchemas.strict.parse(snapshot)).toEqual(snapshot);
    }
  });

  it('the history drops what a newer version added; the sidebar refuses it', () => {
    const base: TaskSnapshot = {
      id: 't1',
      parentId: null,
      rootId: 't1',
      depth: 0,
      role: 'reviewer',
      description: 'Review',
      prompt: 'Review it',
      background: false,
      status: 'stopped',
      createdAt: 1,
      stopReason: { kind: 'user' },
      usage: { inputTokens: 1, outputTokens: 2 },
      treeUsage: { inputTokens: 1, outputTokens: 2 },
      transcriptLength: 0,
    };
    const fromNewerVersion = { ...base, budget: 5, stopReason: { kind: 'user', by: 'x' }, usage: { ...base.usage, cachedTokens: 3 } };
    expect(taskSnapshotSchemas.lenient.parse(fromNewerVersion)).toEqual(base);
    expect(taskSnapshotSchemas.strict.safeParse(fromNewerVersion).success).toBe(false);
    expect(taskSnapshotSchemas.strict.parse(base)).toEqual(base);
  });

  it('the types inferred for every variant are the engine type', () => {
    expectTypeOf<z.infer<typeof taskSnapshotSchemas.lenient>>().toEqualTypeOf<TaskSnapshot>();
    expectTypeOf<z.infer<typeof taskSnapshotSchemas.strict>>().toEqualTypeOf<TaskSnapshot>();
    expectTypeOf<ProtocolTask>().toEqualTypeOf<Omit<TaskSnapshot, 'prompt' | 'output' | 'ancestorTasks'>>();
    expectTypeOf<Omit<TaskDetail, 'taskId' | 'commandApproval'>>().toEqualTypeOf<
      Pick<TaskSnapshot, 'prompt' | 'output' | 'ancestorTasks'>
    >();
    expectTypeOf<z.infer<typeof stopReasonSchemas.lenient>>().toEqualTypeOf<StopReason>();
  });
});

describe('TranscriptEntry: one definition, read by the history and the sidebar', () => {
  it('both variants accept every entry a real run records, after the JSON round trip either one makes', async () => {
    const transcript = await engineTranscript();
    const kinds = transcriptEntrySchemas.strict.options.map((option) => option.shape.type.value);
    expect(sorted(transcript.map((entry) => entry.type))).toEqual(sorted(kinds));
    for (const entry of transcript) {
      expect(transcriptEntrySchemas.lenient.parse(roundTrip(entry))).toEqual(entry);
      expect(transcriptEntrySchemas.strict.parse(roundTrip(entry))).toEqual(entry);
    }
    expect(parseHostMessage(roundTrip({ type: 'transcript', taskId: 't1', index: 0, entries: transcript })).reason).toBeUndefined();
  });

  it('the history keeps a task whose transcript holds a tool call without input (JSON drops `undefined`)', () => {
    const entry: TranscriptEntry = { type: 'tool-call', toolCallId: 'c1', toolName: 'Edit', input: undefined };
    const snapshot = taskSnapshotSchemas.strict.parse({
      id: 't1',
      parentId: null,
      rootId: 't1',
      depth: 0,
      role: 'refactorer',
      description: 'Edit',
      prompt: 'Edit it',
      background: false,
      status: 'completed',
      createdAt: 1,
      usage: { inputTokens: 0, outputTokens: 0 },
      treeUsage: { inputTokens: 0, outputTokens: 0 },
      transcriptLength: 1,
    });
    const warnings: string[] = [];
    const history = parsePersistedHistory(
      roundTrip({ version: 1, tasks: [{ task: snapshot, transcript: [entry], droppedTranscriptEntries: 0 }] }),
      (message) => warnings.push(message),
    );
    expect(history?.tasks.map((persisted) => persisted.transcript)).toEqual([[{ type: 'tool-call', toolCallId: 'c1', toolName: 'Edit' }]]);
    expect(warnings).toEqual([]);
  });

  it('the protocol entry is the engine entry', () => {
    expectTypeOf<ProtocolTranscriptEntry>().toEqualTypeOf<TranscriptEntry>();
    expectTypeOf<z.infer<typeof transcriptEntrySchemas.lenient>>().toEqualTypeOf<TranscriptEntry>();
  });
});
