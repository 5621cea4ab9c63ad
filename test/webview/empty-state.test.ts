// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

function buttons(root: ParentNode): HTMLButtonElement[] {
  return Array.from(root.querySelectorAll<HTMLButtonElement>('.empty-state button, .banner button'));
}

function buttonNamed(root: ParentNode, name: string): HTMLButtonElement {
  const button = buttons(root).find((candidate) => candidate.textContent === name);
  if (!button) throw new Error(`no button "${name}"`);
  return button;
}

describe('the empty state', () => {
  it('offers Delegate Task when a model is configured', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([], { modelConfigured: true, provider: 'openai', model: 'gpt-5', restricted: false }));
    expect(harness.root.querySelector('.empty-state')!.textContent).toContain('openai/gpt-5');
    expect(buttons(harness.root).map((button) => button.textContent)).toEqual(['Delegate Task', 'Select Model']);
    click(buttonNamed(harness.root, 'Delegate Task'));
    expect(harness.posted.at(-1)).toEqual({ type: 'delegate' });
    click(buttonNamed(harness.root, 'Select Model'));
    expect(harness.posted.at(-1)).toEqual({ type: 'run-command', command: 'agentTeam.selectModel' });
  });

  it('names a model VS Code offers by its own name', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([], { modelConfigured: true, provider: 'vscode-lm', model: 'GPT-5 mini', restricted: false }));
    expect(harness.root.querySelector('.empty-state')!.textContent).toContain('with GPT-5 mini (VS Code)');
  });

  it('offers a model VS Code already has first, with no key, when none is configured', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([], { modelConfigured: false, languageModel: 'Claude Sonnet (Copilot)', restricted: false }));
    const offered = buttons(harness.root);
    expect(offered.map((button) => button.textContent)).toEqual([
      'Use Claude Sonnet (Copilot)',
      'Set API Key',
      'Select Model',
      'Open Walkthrough',
    ]);
    // The offer is the primary button; setting a key becomes one of the alternatives.
    expect(offered.map((button) => button.classList.contains('button-secondary'))).toEqual([false, true, true, true]);
    expect(harness.root.querySelector('.empty-state')!.textContent).toContain('without an API key');
    click(offered[0]!);
    expect(harness.posted.at(-1)).toEqual({ type: 'use-language-model' });
  });

  it('guides to a provider and key when no model is configured', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([], { modelConfigured: false, restricted: false }));
    expect(buttons(harness.root).map((button) => button.textContent)).toEqual(['Set API Key', 'Select Model', 'Open Walkthrough']);
    click(buttonNamed(harness.root, 'Set API Key'));
    click(buttonNamed(harness.root, 'Open Walkthrough'));
    expect(harness.posted.slice(-2)).toEqual([
      { type: 'run-command', command: 'agentTeam.setApiKey' },
      { type: 'run-command', command: 'workbench.action.openWalkthrough' },
    ]);
  });

  it('offers a detected local OpenAI-compatible server', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([], { modelConfigured: false, localServerUrl: 'http://127.0.0.1:11434/v1', restricted: false }));
    expect(harness.root.querySelector('.empty-state')!.textContent).toContain('http://127.0.0.1:11434/v1');
    click(buttonNamed(harness.root, 'Use Local Server'));
    expect(harness.posted.at(-1)).toEqual({ type: 'use-local-server' });
  });

  it('explains Restricted Mode instead of offering to run agents', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([], { modelConfigured: true, restricted: true }));
    const text = harness.root.querySelector('.empty-state')!.textContent!;
    expect(text).toContain('Restricted Mode');
    expect(text).toContain('Trust');
    expect(buttons(harness.root).map((button) => button.textContent)).toEqual(['Manage Workspace Trust']);
    click(buttonNamed(harness.root, 'Manage Workspace Trust'));
    expect(harness.posted.at(-1)).toEqual({ type: 'run-command', command: 'workbench.trust.manage' });
  });

  it('keeps the history visible in Restricted Mode, under a banner', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 't1', status: 'completed' })], { modelConfigured: true, restricted: true }));
    expect(harness.root.querySelector<HTMLElement>('.banner')!.hidden).toBe(false);
    expect(harness.root.querySelector('.banner')!.textContent).toContain('Restricted Mode');
    expect(harness.rows()).toHaveLength(1);
    harness.send({ type: 'setup-state', setup: { modelConfigured: true, restricted: false } });
    expect(harness.root.querySelector<HTMLElement>('.banner')!.hidden).toBe(true);
  });

  it('shows nothing but a loading line before the first snapshot', () => {
    const harness = mountHarness();
    harness.scheduler.runFrame();
    expect(harness.root.querySelector<HTMLElement>('.loading')!.hidden).toBe(false);
    expect(harness.root.querySelector<HTMLElement>('.empty-state')!.hidden).toBe(true);
    expect(buttons(harness.root)).toHaveLength(0);
  });
});
