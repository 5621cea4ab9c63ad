/**
 * The manifest against VS Code's extension guidelines: settings read only from the user's own settings are
 * `application`-scoped (the Settings editor then offers them nowhere else, where they would be ignored),
 * `order` values are unique, the delegation commands are hidden in Restricted Mode and Apply to Branch
 * outside git, walkthrough steps complete on their outcome (never on running a command), the walkthrough
 * names the keys the manifest binds, and no field claims what is not true.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredSettings } from '../../src/engine/capabilities/descriptor-list.js';
import { capabilityDescriptors } from '../../src/engine/team/capabilities.js';

const root = nodePath.join(__dirname, '../..');
const read = (file: string) => readFileSync(nodePath.join(root, file), 'utf8');
interface MenuEntry {
  command: string;
  when?: string;
}
const manifest = JSON.parse(read('package.json')) as {
  repository?: { url?: string };
  contributes: {
    configuration: { properties: Record<string, { scope?: string; order?: number }> };
    menus: Record<string, MenuEntry[]>;
    keybindings: Array<{ command: string; key: string; mac?: string }>;
    walkthroughs: Array<{ steps: Array<{ id: string; completionEvents: string[]; media: { markdown: string } }> }>;
  };
};

/** Every `src/extension` source, to find which settings are read from the user's settings alone. */
function extensionSources(): string {
  const folder = nodePath.join(root, 'src/extension');
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(nodePath.join(folder, file), 'utf8'))
    .join('\n');
}

describe('manifest conventions', () => {
  const properties = manifest.contributes.configuration.properties;

  it('scopes every setting read only from the user\u2019s settings to the application', () => {
    const userOnly = [
      ...[...extensionSources().matchAll(/inspect<[^>]+>\('(\w+)'\)\?\.globalValue/g)].map((match) => `agentTeam.${match[1]!}`),
      // The settings the descriptors declare user-only, which the reader takes from the user's settings alone.
      ...declaredSettings(capabilityDescriptors)
        .filter(({ setting }) => setting.trust === 'user')
        .map(({ setting }) => setting.key),
    ];
    expect(userOnly).toEqual(
      expect.arrayContaining(['agentTeam.budgetUsd', 'agentTeam.modelPrices', 'agentTeam.otlpEndpoint', 'agentTeam.otlpCaptureContent']),
    );
    for (const setting of new Set(userOnly)) expect(properties[setting]?.scope, setting).toBe('application');
  });

  it('gives every setting an order of its own', () => {
    const orders = Object.values(properties).map((property) => property.order);
    expect(orders.every((order) => typeof order === 'number')).toBe(true);
    expect(new Set(orders).size).toBe(orders.length);
  });

  it('hides the commands that start agents in Restricted Mode, everywhere they are offered', () => {
    for (const command of ['agentTeam.delegate', 'agentTeam.planAndDelegate', 'agentTeam.runWorkflow', 'agentTeam.newRole']) {
      const entries = Object.values(manifest.contributes.menus)
        .flat()
        .filter((entry) => entry.command === command);
      expect(
        entries.some((entry) => entry.when !== undefined && /^isWorkspaceTrusted\b/.test(entry.when)),
        `${command} in the palette`,
      ).toBe(true);
      for (const entry of entries) expect(entry.when, command).toContain('isWorkspaceTrusted');
    }
  });

  it('offers Apply to Branch only where git has a repository open', () => {
    const entries = Object.values(manifest.contributes.menus)
      .flat()
      .filter((entry) => entry.command === 'agentTeam.applyToBranch');
    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const entry of entries) expect(entry.when).toContain('gitOpenRepositoryCount != 0');
  });

  it('completes walkthrough steps on their outcome, on context keys the extension sets', () => {
    const sources = extensionSources();
    for (const step of manifest.contributes.walkthroughs[0]!.steps) {
      expect(step.completionEvents.length, step.id).toBeGreaterThan(0);
      // Running a command is no outcome: the review step ticked with nothing to review.
      expect(
        step.completionEvents.filter((event) => event.startsWith('onCommand:')),
        step.id,
      ).toEqual([]);
      for (const event of step.completionEvents.filter((each) => each.startsWith('onContext:'))) {
        expect(sources, event).toContain(`'${event.slice('onContext:'.length)}'`);
      }
    }
    const steps = Object.fromEntries(manifest.contributes.walkthroughs[0]!.steps.map((step) => [step.id, step.completionEvents]));
    expect(steps.delegate).toEqual(['onContext:agentTeam.hasTasks']);
    expect(steps.review).toEqual(['onContext:agentTeam.hasDecidedChanges']);
  });

  it('names in the walkthrough the keys the manifest binds', () => {
    const asKeys = (binding: string) =>
      binding
        .split('+')
        .map((key) => `<kbd>${key === 'cmd' ? 'Cmd' : key.length === 1 ? key.toUpperCase() : key[0]!.toUpperCase() + key.slice(1)}</kbd>`)
        .join('+');
    const delegate = manifest.contributes.keybindings.find((binding) => binding.command === 'agentTeam.delegate')!;
    const page = read('media/walkthrough/delegate.md');
    expect(page).toContain(asKeys(delegate.key));
    expect(page).toContain(asKeys(delegate.mac!));
    const review = read('media/walkthrough/review.md');
    for (const command of ['agentTeam.acceptHunk', 'agentTeam.rejectHunk']) {
      expect(review).toContain(asKeys(manifest.contributes.keybindings.find((binding) => binding.command === command)!.key));
    }
  });

  it('claims no repository the project does not have', () => {
    expect(manifest.repository?.url ?? '').not.toMatch(/example\.invalid|example\.com/);
  });
});
