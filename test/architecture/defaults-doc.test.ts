/**
 * docs/defaults.md lists every default of src/engine/limits.ts (name, value, unit): a default added,
 * removed or changed on either side without the other fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedDefaults, limitRanges } from '../../src/engine/limits.js';

const document = readFileSync(path.resolve(import.meta.dirname, '../../docs/defaults.md'), 'utf8');

/** The table's rows: `| \`name\` | value | unit | what |`. */
function documented(): Map<string, { value: string; unit: string }> {
  const rows = new Map<string, { value: string; unit: string }>();
  for (const line of document.split('\n')) {
    const match = /^\|\s*`([A-Za-z0-9]+)`\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (!match) continue;
    expect(rows.has(match[1]!), `${match[1]} is listed twice`).toBe(false);
    rows.set(match[1]!, { value: match[2]!, unit: match[3]! });
  }
  return rows;
}

function defined(): Map<string, { value: string; unit: string }> {
  return new Map<string, { value: string; unit: string }>([
    ...Object.entries(limitRanges).map(([name, range]) => [name, { value: String(range.default), unit: range.unit as string }] as const),
    ...Object.entries(fixedDefaults).map(([name, entry]) => [name, { value: String(entry.value), unit: entry.unit as string }] as const),
  ]);
}

describe('docs/defaults.md', () => {
  it('lists every default of limits.ts with its value and unit', () => {
    const rows = documented();
    for (const [name, expected] of defined()) expect(rows.get(name), `${name} in docs/defaults.md`).toEqual(expected);
  });

  it('lists nothing limits.ts does not define', () => {
    const names = defined();
    for (const name of documented().keys()) expect(names.has(name), `${name} is in docs/defaults.md, not in limits.ts`).toBe(true);
  });
});
