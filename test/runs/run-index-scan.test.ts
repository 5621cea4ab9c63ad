/**
 * The index's fast path (run-index-scan.ts) must accept only lines the checked parse accepts, and give the
 * same values: every line as the index writes it, tricky text included, goes the fast way; anything else
 * (damaged, foreign, reordered, a character changed anywhere) goes the slow way or is refused as before.
 */
import { describe, expect, it } from 'vitest';
import { parseIndexLine, type RunSummary } from '../../src/engine/runs/run-index-line.js';
import { readSummary, scanIndexLine } from '../../src/engine/runs/run-index-scan.js';

const texts = ['', 'plain', 'a "quoted" \\ back\\slash', 'line\nbreak\ttab\u0001', 'ü € 😀', '\ud800 lone', '\u2028\u2029', '</script>/'];

function written(number: number): RunSummary {
  const summary: RunSummary = {
    runId: `r-${number}_x`,
    description: texts[number % texts.length]!,
    role: texts[(number + 3) % texts.length]!,
    status: (['queued', 'running', 'waiting', 'completed', 'failed', 'stopped', 'interrupted'] as const)[number % 7]!,
    createdAt: number * 1_000_003,
    updatedAt: number === 5 ? Number.MAX_SAFE_INTEGER : number * 1_000_007,
    bytes: number % 4 === 0 ? 0 : number * 31,
    taskIds: number % 6 === 0 ? [] : [`r-${number}_x`, ...texts.slice(1, 1 + (number % 4)).map((text) => `t ${text}`)],
  };
  if (number % 3 !== 0) summary.openTasks = number % 5;
  return summary;
}

/** A fixed sequence of pseudo-random numbers, so a failure is seen again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('scanIndexLine', () => {
  it('takes every line as the index writes it, with the values the checked parse gives', () => {
    for (let number = 0; number < 200; number++) {
      const line = JSON.stringify(written(number));
      const scanned = scanIndexLine(line);
      const parsed = parseIndexLine(line) as RunSummary;
      expect(scanned, line).toBeDefined();
      expect({ runId: scanned!.runId, updatedAt: scanned!.updatedAt, bytes: scanned!.bytes, taskIds: scanned!.taskIds }).toEqual({
        runId: parsed.runId,
        updatedAt: parsed.updatedAt,
        bytes: parsed.bytes,
        taskIds: parsed.taskIds,
      });
      expect(readSummary(scanned!)).toEqual(parsed);
      expect(JSON.stringify(readSummary(scanned!))).toBe(line);
    }
  });

  it('leaves to the checked parse every other line: damaged, foreign, reordered, spaced, tombstones', () => {
    const line = JSON.stringify(written(7));
    const others = [
      JSON.stringify({ runId: 'r1', removed: true }),
      line.replace('"updatedAt":7000049', '"updatedAt":07000049'),
      line.replace('"bytes":217', '"bytes":-217'),
      line.replace('"bytes":217', '"bytes":217.5'),
      line.replace('"bytes":217', '"bytes":2e2'),
      line.replace('"bytes":217', '"bytes":12345678901234567'),
      line.replace('"status":"queued"', '"status":"done"'),
      line.replace('"runId":"r-7_x"', '"runId":"../x"'),
      line.replace('"description":"', '"description":"\t'),
      line.replace('"description":"', '"description":"\\x'),
      line.replace('"description":"', '"description":"\\u12'),
      line.replace('"taskIds":["', '"taskIds":["","'),
      line.replace('{', '{ '),
      `${line} `,
      `${line}\r`,
      `\ufeff${line}`,
      `${line.slice(0, -1)},"planted":1}`,
      JSON.stringify({ ...written(7), runId: undefined, bytes: 1, id: 'r-7_x' }),
    ];
    for (const other of others) {
      expect(other).not.toBe(line);
      expect(scanIndexLine(other), other).toBeUndefined();
    }
  });

  it('never takes a line the checked parse refuses, nor reads one differently, whatever character is changed', () => {
    const next = random(43);
    const alphabet = ['"', '\\', ',', ':', '{', '}', '[', ']', '0', '1', '9', '-', '.', 'e', 'u', 'a', ' ', '\t', '\u0000', '\ud83d', 'é'];
    let taken = 0;
    for (let round = 0; round < 5000; round++) {
      const line = JSON.stringify(written(round % 50));
      const characters = [...line];
      for (let changes = 1 + Math.floor(next() * 3); changes > 0; changes--) {
        const at = Math.floor(next() * characters.length);
        const replacement = alphabet[Math.floor(next() * alphabet.length)]!;
        const kind = next();
        if (kind < 0.4) characters[at] = replacement;
        else if (kind < 0.7) characters.splice(at, 0, replacement);
        else characters.splice(at, 1);
      }
      const changed = characters.join('');
      const scanned = scanIndexLine(changed);
      if (scanned === undefined) continue;
      taken++;
      const parsed = parseIndexLine(changed);
      expect(parsed, changed).toBeDefined();
      expect(parsed && 'removed' in parsed, changed).toBe(false);
      const summary = parsed as RunSummary;
      expect([scanned.runId, scanned.updatedAt, scanned.bytes, scanned.taskIds], changed).toEqual([
        summary.runId,
        summary.updatedAt,
        summary.bytes,
        summary.taskIds,
      ]);
    }
    // Some changes leave a line as written (a letter for a letter in a title): those must read the same.
    expect(taken).toBeGreaterThan(100);
  });

  it('leaves a line of megabytes to the checked parse, which reads it as before', () => {
    const summary = {
      ...written(1),
      description: 'x'.repeat(15 * 1024 * 1024),
      taskIds: Array.from({ length: 20_000 }, (_, number) => `t${number}`),
    };
    const line = JSON.stringify(summary);
    expect(scanIndexLine(line)).toBeUndefined();
    expect(parseIndexLine(line)).toEqual(summary);
  });
});
