import { describe, expect, it } from 'vitest';
import type { RestoreFile, RestorePoint, RestorePointKind } from '../../../src/engine/runs/checkpoints/restore-point.js';
import { digestOf, storeContent } from '../../../src/engine/runs/checkpoints/stored-content.js';
import { planUndo } from '../../../src/engine/runs/checkpoints/undo-plan.js';

const content = (text: string) => storeContent(Buffer.from(text));
const file = (path: string, before: string | null, after: string | null): RestoreFile => ({
  path,
  before: before === null ? null : content(before),
  after: after === null ? null : digestOf(Buffer.from(after)),
});
let next = 0;
const point = (kind: RestorePointKind, ...files: RestoreFile[]): RestorePoint => ({
  pointId: `p${next++}`,
  kind,
  at: next,
  taskIds: [],
  files,
});
const targets = (plan: ReturnType<typeof planUndo>) =>
  'nothing' in plan
    ? plan
    : {
        direction: plan.direction,
        files: plan.files.map((planned) => [
          planned.path,
          planned.target?.data ?? null,
          planned.expected?.sha256 === undefined ? null : 'digest',
        ]),
      };

describe('planUndo: what an undo of a run writes', () => {
  it('has nothing to undo without an accept', () => {
    expect(planUndo([])).toEqual({ nothing: 'no change of it was accepted' });
  });

  it('undoes an accept to the content before (a created file is deleted), and expects what the accept wrote', () => {
    const plan = planUndo([point('accept', file('a.ts', 'old', 'new'), file('b.ts', null, 'created'))]);
    expect(targets(plan)).toEqual({
      direction: 'undo',
      files: [
        ['a.ts', 'old', 'digest'],
        ['b.ts', null, 'digest'],
      ],
    });
    expect('nothing' in plan ? undefined : plan.files[0]?.expected).toEqual(digestOf(Buffer.from('new')));
  });

  it('goes back to before the first of several accepts of a file', () => {
    expect(targets(planUndo([point('accept', file('a.ts', 'v0', 'v1')), point('accept', file('a.ts', 'v1', 'v2'))]))).toEqual({
      direction: 'undo',
      files: [['a.ts', 'v0', 'digest']],
    });
  });

  it('after an undo, undoes the undo (redo) to the content the undo replaced, and then undoes again', () => {
    const accept = point('accept', file('a.ts', 'v0', 'v1'), file('b.ts', null, 'made'));
    const undo = point('undo', file('a.ts', 'v1', 'v0'), file('b.ts', 'made', null));
    expect(targets(planUndo([accept, undo]))).toEqual({
      direction: 'redo',
      files: [
        ['a.ts', 'v1', 'digest'],
        ['b.ts', 'made', null],
      ],
    });
    const redo = point('redo', file('a.ts', 'v0', 'v1'), file('b.ts', null, 'made'));
    expect(targets(planUndo([accept, undo, redo]))).toEqual({
      direction: 'undo',
      files: [
        ['a.ts', 'v0', 'digest'],
        ['b.ts', null, 'digest'],
      ],
    });
  });

  it('redoes only the files of the last undo; undoes only files still accepted', () => {
    const points = [
      point('accept', file('a.ts', 'a0', 'a1')),
      point('undo', file('a.ts', 'a1', 'a0')),
      point('accept', file('b.ts', 'b0', 'b1')),
    ];
    expect(targets(planUndo(points))).toEqual({ direction: 'undo', files: [['b.ts', 'b0', 'digest']] });
    expect(targets(planUndo([...points, point('undo', file('b.ts', 'b1', 'b0'))]))).toEqual({
      direction: 'redo',
      files: [['b.ts', 'b1', 'digest']],
    });
  });

  it('plans only the paths asked for', () => {
    const points = [point('accept', file('a.ts', 'a0', 'a1'), file('b.ts', 'b0', 'b1'))];
    expect(targets(planUndo(points, new Set(['b.ts'])))).toEqual({ direction: 'undo', files: [['b.ts', 'b0', 'digest']] });
    expect(planUndo([...points, point('undo', file('a.ts', 'a1', 'a0'), file('b.ts', 'b1', 'b0'))], new Set(['a.ts']))).toMatchObject({
      direction: 'redo',
      files: [{ path: 'a.ts' }],
    });
  });
});
