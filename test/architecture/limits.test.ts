/**
 * One table of limits (src/engine/limits.ts): the settings package.json declares, the CLI's flags and the
 * extension's configuration reader must all agree with it on each limit's default and range.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseArguments, type RunArguments } from '../../src/cli/arguments.js';
import { defaultLimits, type LimitName, limitRanges } from '../../src/engine/limits.js';
import { engineLimitsSchema } from '../../src/engine/limit-reading.js';
import { readSettings } from '../../src/extension/configuration.js';
import { activateExtension, type ActivatedExtension } from '../extension/support/harness.js';

vi.mock('vscode', () => import('../extension/support/fake-vscode.js'));

type SettingSchema = { type?: string; default?: unknown; minimum?: number; maximum?: number };
const manifest = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, SettingSchema> } };
};
const settings = manifest.contributes.configuration.properties;
const names = Object.keys(limitRanges) as LimitName[];

/** The CLI's flag for each limit it takes, and the field it parses into. */
const cliFlags: Partial<Record<LimitName, { flag: string; field: keyof RunArguments }>> = {
  maxConcurrentTasks: { flag: '--max-concurrent', field: 'maxConcurrent' },
  maxDepth: { flag: '--max-depth', field: 'maxDepth' },
  maxSubtasks: { flag: '--max-subtasks', field: 'maxSubtasks' },
  autoBackgroundSeconds: { flag: '--auto-background-seconds', field: 'autoBackgroundSeconds' },
};

let extension: ActivatedExtension | undefined;
afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
});

describe('the limits table', () => {
  it('validates with zod: the defaults when nothing is given, and a value out of range is refused', () => {
    expect(engineLimitsSchema().parse({})).toEqual(defaultLimits);
    expect(engineLimitsSchema().safeParse({ maxConcurrentTasks: limitRanges.maxConcurrentTasks.maximum + 1 }).success).toBe(false);
    expect(engineLimitsSchema().safeParse({ maxDepth: 1.5 }).success).toBe(false);
  });

  it.each(names)('%s: package.json declares the same default and range', (name) => {
    const range = limitRanges[name];
    const setting = settings[`agentTeam.${name}`];
    expect(setting, `agentTeam.${name} in package.json`).toBeDefined();
    expect(setting).toMatchObject({ type: range.whole ? 'integer' : 'number', default: range.default, minimum: range.minimum });
    expect(setting!.maximum).toBe(Number.isFinite(range.maximum) ? range.maximum : undefined);
  });

  it.each(Object.entries(cliFlags))('%s: the CLI defaults to it and takes exactly its range', (name, cli) => {
    const range = limitRanges[name as LimitName];
    const parse = (value?: string) =>
      parseArguments(['run', ...(value === undefined ? [] : [cli.flag, value]), 'the task'], '/work') as RunArguments;
    expect(parse()[cli.field]).toBe(range.default);
    expect(parse(String(range.minimum))[cli.field]).toBe(range.minimum);
    if (range.minimum > 0) expect(() => parse(String(range.minimum - 1))).toThrow(cli.flag);
    if (Number.isFinite(range.maximum)) {
      expect(parse(String(range.maximum))[cli.field]).toBe(range.maximum);
      expect(() => parse(String(range.maximum + 1))).toThrow(
        `${cli.flag} must be a whole number from ${range.minimum} to ${range.maximum}`,
      );
    }
  });

  it('the extension reads each setting in its range: the maximum above it, the default below it', async () => {
    const bounded = names.filter((name) => Number.isFinite(limitRanges[name].maximum));
    extension = activateExtension({
      trusted: true,
      userSettings: Object.fromEntries(bounded.map((name) => [`agentTeam.${name}`, limitRanges[name].maximum + 5])),
    });
    const above = readSettings(true);
    for (const name of bounded) expect(above[name], name).toBe(limitRanges[name].maximum);
    await extension.cleanup();

    const floored = names.filter((name) => limitRanges[name].minimum > 0);
    extension = activateExtension({
      trusted: true,
      userSettings: Object.fromEntries(floored.map((name) => [`agentTeam.${name}`, limitRanges[name].minimum - 1])),
    });
    const below = readSettings(true);
    for (const name of floored) expect(below[name], name).toBe(limitRanges[name].default);
  });
});
