import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeSet } from '../../src/engine/changes/change-set.js';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import type { TaskWorkContext } from '../../src/engine/tasks/work.js';
import { StagedWork } from '../tasks/support/staged-work.js';
import { type RunLogWorld, createRunLogWorld, finishedRun, task } from './support/run-log-world.js';

let world: RunLogWorld;

beforeEach(async () => {
  world = await createRunLogWorld();
});

afterEach(async () => {
  await world.remove();
});

const bigPath = 'src/big.ts';
/** About 1 MB: 12,000 lines of a generated module. */
const base = Array.from(
  { length: 12_000 },
  (_, line) => `export const value${line} = compute(${line}, 'a string that makes the line longer');\n`,
).join('');
const newFile = 'export const added = 1;\n';

/** The big file with values 0 .. edits-1 renamed (each edit renames one, spread over the file). */
function edited(edits: number): string {
  let text = base;
  for (let edit = 0; edit < edits; edit++) text = text.replace(`value${(edit * 577) % 12_000} `, `renamedValue${(edit * 577) % 12_000} `);
  return text;
}

interface ProposingTask {
  context: TaskWorkContext;
  work: StagedWork;
  changeSet: ChangeSet;
}

/** Task t1 under way with a change set the run log follows. */
async function proposingTask(): Promise<ProposingTask> {
  const registry = new ChangeSetRegistry();
  world.runLog.attachChanges(registry);
  const work = new StagedWork();
  await world.manager.start(task(work, { role: 'refactorer' }));
  return { context: await work.started, work, changeSet: registry.createWhenUsed('t1', 'refactorer') };
}

/** One edit of the big file, then a turn boundary: the run is written before the next model request. */
function editAndEndTurn({ context, changeSet }: ProposingTask, edits: number): void {
  changeSet.propose(bigPath, { baseContent: base, proposedContent: edited(edits) });
  context.recordConversation?.([{ role: 'user', content: [{ type: 'text', text: `edit ${edits}` }] }]);
}

const runFile = () => path.join(world.directory, 't1.jsonl');

async function withoutLines(keep: (line: Record<string, unknown>) => boolean): Promise<void> {
  const lines = (await readFile(runFile(), 'utf8')).split('\n').filter((line) => line !== '');
  await writeFile(runFile(), `${lines.filter((line) => keep(JSON.parse(line) as Record<string, unknown>)).join('\n')}\n`);
}

describe('RunLog: proposals written as what changed', () => {
  it('writes each base once and each edit as its change, and reads back the last proposals exactly', async () => {
    const proposing = await proposingTask();
    proposing.changeSet.propose('src/added.ts', { baseContent: null, proposedContent: newFile });
    for (let edits = 1; edits <= 20; edits++) editAndEndTurn(proposing, edits);
    await world.runLog.flush();

    const lines = await world.lines('t1');
    expect(lines.filter((line) => line.type === 'proposals')).toHaveLength(20);
    const texts = lines.filter((line) => line.type === 'file-text');
    // Whole: the base and the new file, once each; every proposal of the big file is a delta.
    expect(texts.filter((line) => line.delta === undefined).map((line) => line.text)).toEqual([newFile, base]);
    expect(texts.filter((line) => line.delta !== undefined)).toHaveLength(20);
    expect(texts.filter((line) => line.delta !== undefined).every((line) => (line.text as string).length < 100)).toBe(true);
    // Twenty whole snapshots would be over 40 times the file; what is above 1 is mostly the hunks of the diff
    // each record holds (the diff grows by an edit each time).
    expect((await stat(runFile())).size).toBeLessThan(1.5 * base.length);

    const expected = proposing.changeSet.snapshot();
    expect(expected.files.map((file) => file.path)).toEqual(['src/added.ts', bigPath]);
    expect((await world.runLog.read('t1'))?.changeSets).toEqual([expected]);
    const later = await world.reopen();
    expect((await later.read('t1'))?.changeSets).toEqual([expected]);
    await later.close();
    expect(world.warnings).toEqual([]);
    proposing.work.complete('done');
  });

  it('writes a base once for every task that proposes the file from it, and keeps it for them all', async () => {
    const registry = new ChangeSetRegistry();
    world.runLog.attachChanges(registry);
    const root = new StagedWork();
    await world.manager.start(task(root, { role: 'refactorer' }));
    const rootContext = await root.started;
    const child = new StagedWork();
    await world.manager.start(task(child, { parentId: 't1', role: 'refactorer' }));
    await child.started;
    const rootSet = registry.createWhenUsed('t1', 'refactorer');
    const childSet = registry.createWhenUsed('t2', 'refactorer');
    const endTurn = () => rootContext.recordConversation?.([{ role: 'user', content: [{ type: 'text', text: 'turn' }] }]);
    // Each read the file from disk: equal texts, not the same string.
    rootSet.propose(bigPath, { baseContent: base.slice(0, 10) + base.slice(10), proposedContent: edited(1) });
    endTurn();
    // The root's proposals are rejected and dropped before the child proposes from the same base.
    rootSet.reject();
    registry.remove('t1');
    endTurn();
    childSet.propose(bigPath, { baseContent: base.slice(0, 20) + base.slice(20), proposedContent: edited(2) });
    endTurn();
    childSet.propose(bigPath, { baseContent: base, proposedContent: edited(3) });
    endTurn();
    await world.runLog.flush();

    const lines = await world.lines('t1');
    const bases = lines.filter((line) => line.text === base);
    expect(bases.map((line) => line.taskId)).toEqual(['t1']);
    const childRecords = lines.filter((line) => line.type === 'proposals' && line.taskId === 't2');
    expect(
      childRecords.map((line) => (line.changeSet as { files: Array<{ baseText: { textId: string } }> }).files[0]?.baseText.textId),
    ).toEqual([bases[0]?.textId, bases[0]?.textId]);
    expect((await world.runLog.read('t1'))?.changeSets).toEqual([childSet.snapshot()]);
    expect(world.warnings).toEqual([]);
    child.complete('done');
    root.complete('done');
  });

  it('leaves out proposals whose base line is lost, with a warning, until a later process writes them whole', async () => {
    const proposing = await proposingTask();
    for (let edits = 1; edits <= 3; edits++) editAndEndTurn(proposing, edits);
    await world.runLog.flush();
    await withoutLines((line) => line.text !== base);

    expect((await world.runLog.read('t1'))?.changeSets).toEqual([]);
    // Said once for the three records that name it.
    expect(world.warnings).toEqual([
      expect.stringMatching(
        /^t1\.jsonl: line \d+ holds task t1's proposals, but the text \S+ it names is in no line before it \(a line is missing or damaged\); they are left out until they are recorded whole again$/,
      ),
    ]);
    const damaged = world.warnings[0];

    // The task ends (its file is closed), and a review decision after it writes the proposals whole again.
    proposing.work.complete('done');
    await world.manager.wait('t1');
    await world.runLog.flush();
    proposing.changeSet.accept();
    await world.runLog.flush();
    expect((await world.lines('t1')).filter((line) => line.text === base)).toHaveLength(1);
    expect((await world.runLog.read('t1'))?.changeSets).toEqual([proposing.changeSet.snapshot()]);
    // Read again from the start: the damaged records are warned of again, and the whole one after them heals.
    expect(world.warnings).toEqual([damaged, damaged]);
  });

  it.each([
    ['lost', 'the text \\S+ it names is in no line before it', (): string[] => []],
    [
      'altered',
      'the text of line \\d+ does not fit the text it builds on',
      (line: Record<string, unknown>) => [JSON.stringify({ ...line, text: `${line.text as string} ` })],
    ],
  ])('never builds a proposal on a delta whose line is %s', async (_how, why, replacement) => {
    const proposing = await proposingTask();
    for (let edits = 1; edits <= 4; edits++) editAndEndTurn(proposing, edits);
    await world.runLog.flush();
    const lines = (await readFile(runFile(), 'utf8')).split('\n').filter((line) => line !== '');
    // The second edit's delta: the chain from it on cannot be built.
    const deltas = lines
      .map((line, index) => ({ record: JSON.parse(line) as Record<string, unknown>, index }))
      .filter(({ record }) => record.type === 'file-text' && record.delta !== undefined);
    lines.splice(deltas[1].index, 1, ...replacement(deltas[1].record));
    await writeFile(runFile(), `${lines.join('\n')}\n`);

    // Not the first edit's proposals either: they are not the task's latest.
    expect((await world.runLog.read('t1'))?.changeSets).toEqual([]);
    expect(world.warnings).toEqual([
      expect.stringMatching(new RegExp(`^t1\\.jsonl: line \\d+ holds task t1's proposals, but ${why} \\(a line is missing or damaged\\)`)),
    ]);
    proposing.work.complete('done');
  });

  it('reads a file of whole proposals as it always did, and goes on from it in a later process', async () => {
    const runId = await finishedRun(world.manager);
    await world.runLog.flush();
    const old = new ChangeSet({ taskId: runId, role: 'researcher' });
    old.propose('a.txt', { baseContent: 'a\n', proposedContent: 'b\n' });
    const first = old.snapshot();
    old.propose('a.txt', { baseContent: 'a\n', proposedContent: 'c\n' });
    old.propose('b.txt', { baseContent: null, proposedContent: 'new\n' });
    const second = old.snapshot();
    // As an earlier version wrote them: whole, at every change.
    await appendFile(
      runFile(),
      [first, second].map((changeSet) => `${JSON.stringify({ type: 'changes', taskId: runId, changeSet })}\n`).join(''),
    );
    expect((await world.runLog.read(runId))?.changeSets).toEqual([second]);

    const later = await world.reopen();
    const registry = new ChangeSetRegistry();
    later.attachChanges(registry);
    const restored = ChangeSet.fromSnapshot(((await later.read(runId))?.changeSets ?? [])[0]);
    registry.add(restored);
    restored.propose('a.txt', { baseContent: 'a\n', proposedContent: 'd\n' });
    await later.flush();
    expect((await later.read(runId))?.changeSets).toEqual([restored.snapshot()]);
    await later.close();
    expect(world.warnings).toEqual([]);
  });

  it('starts afresh in a process that resumes the run: its records name only texts it wrote', async () => {
    const proposing = await proposingTask();
    for (let edits = 1; edits <= 3; edits++) editAndEndTurn(proposing, edits);
    await world.runLog.flush(); // The process dies here: the task never ends.
    const earlierLines = (await world.lines('t1')).length;

    const later = await world.reopen();
    const registry = new ChangeSetRegistry();
    later.attachChanges(registry);
    const restored = ChangeSet.fromSnapshot(((await later.read('t1'))?.changeSets ?? [])[0]);
    registry.add(restored);
    restored.propose(bigPath, { baseContent: base, proposedContent: edited(4) });
    await later.flush();
    restored.propose(bigPath, { baseContent: base, proposedContent: edited(5) });
    await later.flush();

    const lines = await world.lines('t1');
    const earlierIds = new Set(
      lines
        .slice(0, earlierLines)
        .filter((line) => line.type === 'file-text')
        .map((line) => line.textId),
    );
    const laterLines = lines.slice(earlierLines);
    // The base again, and nothing named or built on across the restart.
    expect(laterLines.filter((line) => line.type === 'file-text' && line.delta === undefined).map((line) => line.text)).toEqual([base]);
    const named = laterLines.flatMap((line) =>
      line.type === 'proposals'
        ? (line.changeSet as { files: Array<{ baseText: { textId: string }; proposedText: { textId: string } }> }).files.flatMap((file) => [
            file.baseText.textId,
            file.proposedText.textId,
          ])
        : line.type === 'file-text' && line.delta
          ? [(line.delta as { from: string }).from]
          : [],
    );
    expect(named.filter((textId) => earlierIds.has(textId))).toEqual([]);

    const third = await world.reopen();
    expect((await third.read('t1'))?.changeSets).toEqual([restored.snapshot()]);
    expect(restored.snapshot().files[0]?.proposedContent).toBe(edited(5));
    await Promise.all([later.close(), third.close()]);
    expect(world.warnings).toEqual([]);
    proposing.work.complete('done');
  });
});
