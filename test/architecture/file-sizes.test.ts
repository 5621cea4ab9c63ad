/** STYLE.md's small files, measured: none of src/ over 400 lines, and nine in ten at most 150. */
import { describe, expect, it } from 'vitest';
import { readSourceGraph } from './source-graph.js';

const files = readSourceGraph();

describe('the files of src/', () => {
  it('are at most 400 lines each', () => {
    expect(files.filter((file) => file.lines > 400).map((file) => `${file.path}: ${file.lines}`)).toEqual([]);
  });

  it('are at most 150 lines at the 90th percentile', () => {
    const lines = files.map((file) => file.lines).sort((a, b) => a - b);
    const p90 = lines[Math.ceil(lines.length * 0.9) - 1]!;
    expect(
      p90,
      `the longest: ${files
        .filter((file) => file.lines > 150)
        .map((file) => `${file.path} (${file.lines})`)
        .join(', ')}`,
    ).toBeLessThanOrEqual(150);
  });
});
