/**
 * readSettings reads every setting a descriptor declares, keyed by capability, by the descriptor's rule of
 * whose value counts: a user's value is read; a folder's value of a user-only setting is not.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { declaredSettings } from '../../src/engine/capabilities/descriptor-list.js';
import { capabilityDescriptors } from '../../src/engine/team/capabilities.js';
import { readSettings } from '../../src/extension/configuration.js';
import { activateExtension, type ActivatedExtension } from '../extension/support/harness.js';

vi.mock('vscode', () => import('../extension/support/fake-vscode.js'));

/** Each setting whose CLI option has an example, with the value that example stands for (never the default). */
const examples = declaredSettings(capabilityDescriptors).flatMap(({ capability, name, setting }) =>
  (setting.cli ?? [])
    .filter((option) => option.example !== undefined || option.kind === 'switch')
    .map((option) => ({
      capability,
      name,
      key: setting.key,
      trust: setting.trust,
      value:
        option.kind === 'switch'
          ? option.sets
          : option.parse
            ? option.parse([option.example!])
            : option.kind === 'repeatable'
              ? [option.example]
              : option.example,
    })),
);

let extension: ActivatedExtension | undefined;
afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
});

describe('the VS Code settings the descriptors declare', () => {
  it('are read from the user’s settings into their capability’s part, and by their names', () => {
    expect(examples.length).toBeGreaterThan(5);
    extension = activateExtension({ trusted: true, userSettings: Object.fromEntries(examples.map((entry) => [entry.key, entry.value])) });
    const settings = readSettings(true) as unknown as Record<string, unknown> & { capabilities: Record<string, Record<string, unknown>> };
    for (const entry of examples) {
      expect(settings.capabilities[entry.capability]![entry.name], entry.key).toEqual(entry.value);
      expect(settings[entry.name], entry.key).toEqual(entry.value);
    }
  });

  it('ignore a folder’s value of a setting read from the user alone', () => {
    const userOnly = examples.filter((entry) => entry.trust === 'user');
    expect(userOnly.map((entry) => entry.key)).toEqual(expect.arrayContaining(['agentTeam.allowedDomains', 'agentTeam.allowedCommands']));
    extension = activateExtension({
      trusted: true,
      workspaceSettings: Object.fromEntries(userOnly.map((entry) => [entry.key, entry.value])),
    });
    const settings = readSettings(true).capabilities as unknown as Record<string, Record<string, unknown>>;
    for (const entry of userOnly) expect(settings[entry.capability]![entry.name], entry.key).not.toEqual(entry.value);
  });
});
