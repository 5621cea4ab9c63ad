/** The run index's lines are checked field by field, as the schema they replace checked them (B14). */
import { describe, expect, it } from 'vitest';
import { parseIndexLine } from '../../src/engine/runs/run-index-line.js';

const summary = {
  runId: 't1',
  description: 'Review parsing',
  role: 'coordinator',
  status: 'completed',
  createdAt: 1,
  updatedAt: 2,
  bytes: 300,
  taskIds: ['t1', 't2'],
};

describe('parseIndexLine', () => {
  it('reads a summary, keeping only the known fields, and a tombstone', () => {
    expect(parseIndexLine(JSON.stringify({ ...summary, planted: 'x' }))).toEqual(summary);
    expect(parseIndexLine(JSON.stringify({ ...summary, openTasks: 1 }))).toEqual({ ...summary, openTasks: 1 });
    expect(parseIndexLine(JSON.stringify({ runId: 't1', removed: true, bytes: 5 }))).toEqual({ runId: 't1', removed: true });
  });

  it('refuses anything that is not exactly a summary or a tombstone', () => {
    const refused = [
      'not json',
      '[]',
      'null',
      JSON.stringify({ ...summary, runId: '../etc' }),
      JSON.stringify({ ...summary, status: 'done' }),
      JSON.stringify({ ...summary, bytes: -1 }),
      JSON.stringify({ ...summary, createdAt: 1.5 }),
      JSON.stringify({ ...summary, updatedAt: '2' }),
      JSON.stringify({ ...summary, taskIds: ['t1', ''] }),
      JSON.stringify({ ...summary, taskIds: 't1' }),
      JSON.stringify({ ...summary, openTasks: -2 }),
      JSON.stringify({ ...summary, description: 3 }),
      JSON.stringify({ runId: '../x', removed: true }),
      JSON.stringify({ runId: 't1', removed: 'yes' }),
    ];
    for (const line of refused) expect(parseIndexLine(line), line).toBeUndefined();
  });

  it('keeps a line as the index writes it as parsed, and rebuilds any other in the written shape', () => {
    const written = { ...summary, openTasks: 0 };
    for (const line of [JSON.stringify(summary), JSON.stringify(written)]) {
      const parsed = parseIndexLine(line);
      expect(parsed).toEqual(JSON.parse(line));
      expect(JSON.stringify(parsed)).toBe(line);
    }
    // Reordered, an own `__proto__`, a `removed` that is not true, an extra field: the known fields only, in order.
    const { runId, ...rest } = written;
    const others = [
      JSON.stringify({ ...rest, runId }),
      `${JSON.stringify(written).slice(0, -1)},"__proto__":{"polluted":true}}`,
      JSON.stringify({ ...written, removed: false }),
      JSON.stringify({ ...written, planted: 'x' }),
    ];
    for (const line of others) {
      const parsed = parseIndexLine(line);
      expect(JSON.stringify(parsed), line).toBe(JSON.stringify(written));
      expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });
});
