import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushMicrotasks } from '../../src/engine/testing/manual-clock.js';
import { loadedCore } from '../../src/extension/extension.js';
import { activateExtension, type ActivatedExtension } from './support/harness.js';
import { fake } from './support/fake-vscode.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

/** The manifest as VS Code shows it: `%key%` strings resolved through package.nls.json. */
const strings = JSON.parse(readFileSync(nodePath.join(__dirname, '../../package.nls.json'), 'utf8')) as Record<string, string>;
const localize = (text: string) => text.replace(/^%([^%]+)%$/, (whole, key: string) => strings[key] ?? whole);
const manifest = JSON.parse(readFileSync(nodePath.join(__dirname, '../../package.json'), 'utf8'), (_key, value: unknown) =>
  typeof value === 'string' ? localize(value) : value,
) as {
  activationEvents: string[];
  contributes: {
    commands: Array<{ command: string; category: string }>;
    views: Record<string, Array<{ id: string; name: string; type: string }>>;
    viewsContainers: { activitybar: Array<{ id: string }> };
    configuration: { properties: Record<string, { default?: unknown }> };
    menus: Record<string, Array<{ command: string; when?: string; group?: string }>>;
    chatParticipants: Array<{ id: string; name: string }>;
    languageModelTools: Array<{ name: string; inputSchema: { required: string[] } }>;
    keybindings: Array<{ command: string; key: string; mac?: string; when?: string }>;
  };
  engines: { vscode: string };
  capabilities: {
    untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] };
    virtualWorkspaces: { supported: boolean };
  };
};

const contractCommands = [
  'agentTeam.delegate',
  'agentTeam.stopTask',
  'agentTeam.stopAll',
  'agentTeam.showTask',
  'agentTeam.reviewChanges',
  'agentTeam.setApiKey',
  'agentTeam.clearHistory',
];

let extension: ActivatedExtension | undefined;

afterEach(async () => {
  await extension?.cleanup();
  extension = undefined;
});

describe('activation', () => {
  it('registers every command, the view and the proposal scheme, all in context.subscriptions', async () => {
    extension = activateExtension();
    const registered = [...fake.state.commands.keys()].sort();
    expect(registered).toEqual(manifest.contributes.commands.map((entry) => entry.command).sort());
    for (const command of contractCommands) expect(registered).toContain(command);
    expect([...fake.state.webviewProviders.keys()]).toEqual(['agentTeam.tasks']);
    expect([...fake.state.documents.providers.keys()]).toEqual(['agent-team-proposal']);
    expect(fake.state.codeLensProviders.map((entry) => entry.selector)).toEqual([{ scheme: 'agent-team-proposal' }]);
    expect(fake.state.created.map((record) => record.what)).toEqual(
      expect.arrayContaining([
        'webview view provider agentTeam.tasks',
        'file system provider agent-team-proposal',
        'code lens provider agent-team-proposal',
      ]),
    );
    // The core (the host, its output channel, the status bar item) comes with the first use.
    await extension.ready();
    expect(fake.state.created.map((record) => record.what)).toEqual(
      expect.arrayContaining(['output channel Agent Team', 'status bar item']),
    );
    // Everything VS Code handed out is released with the subscriptions: directly, or by a host object in them.
    for (const subscription of extension.context.subscriptions) subscription.dispose();
    expect(fake.state.created.filter((record) => !record.disposed)).toEqual([]);
    expect(fake.state.commands.size).toBe(0);
  });

  it('loads none of the engine at activation: the core loads on the first command or when the view opens', async () => {
    extension = activateExtension();
    expect(loadedCore()).toBeUndefined();
    expect(fake.state.created.map((record) => record.what)).not.toContain('output channel Agent Team');
    await fake.resolveView();
    expect(loadedCore()?.host).toBeDefined();
    await extension.cleanup();

    extension = activateExtension();
    expect(loadedCore()).toBeUndefined();
    await extension.execute('agentTeam.showTask', 't9');
    expect(loadedCore()?.host).toBeDefined();
  });

  it('the activation shell imports nothing but vscode, the contribution ids and the core loader (types aside)', () => {
    const importsOf = (file: string) => {
      const source = readFileSync(nodePath.join(__dirname, '../../src/extension', file), 'utf8');
      return [...source.matchAll(/^import (?!type )[^;]*? from '([^']+)';/gm)].map((match) => match[1]);
    };
    expect(importsOf('extension.ts').sort()).toEqual(['./contribution-ids.js', './core-code-cache.js', 'vscode']);
    // The core's loader (its V8 code cache) uses Node's own modules only.
    expect(importsOf('core-code-cache.ts').every((name) => name.startsWith('node:'))).toBe(true);
  });

  it('shows nothing, asks nothing and probes no server at activation', () => {
    const probe = vi.fn(async () => undefined);
    extension = activateExtension({ probeLocalServer: probe });
    expect(fake.state.messages).toEqual([]);
    expect(fake.state.quickPicks).toEqual([]);
    expect(probe).not.toHaveBeenCalled();
    expect(fake.state.statusItems.every((item) => !item.visible)).toBe(true);
  });

  it('probes for a local server once, when the sidebar is first shown', async () => {
    const probe = vi.fn(async () => undefined);
    extension = activateExtension({ probeLocalServer: probe });
    await fake.resolveView();
    await fake.resolveView();
    await flushMicrotasks();
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('serves the sidebar with scripts, resources from dist/webview and media only, and a fresh nonce', async () => {
    extension = activateExtension();
    const first = await fake.resolveView();
    const second = await fake.resolveView();
    const options = first.webview.options;
    expect(options.enableScripts).toBe(true);
    expect(options.retainContextWhenHidden).toBeUndefined();
    const root = nodePath.resolve(__dirname, '../..');
    expect(options.localResourceRoots?.map((uri) => nodePath.relative(root, uri.fsPath)).sort()).toEqual(['dist/webview', 'media']);
    const nonceOf = (html: string) => /script-src 'nonce-([0-9a-f]+)'/.exec(html)?.[1];
    expect(nonceOf(first.webview.html)).toMatch(/^[0-9a-f]{32}$/);
    expect(nonceOf(second.webview.html)).not.toBe(nonceOf(first.webview.html));
    expect(first.webview.html).toContain(`<script nonce="${nonceOf(first.webview.html)}"`);
    // VS Code's cspSource is a source list ('self' plus the CDN); it must reach the policy whole.
    expect(first.webview.html).toContain("style-src 'self' https://*.vscode-cdn.net; font-src 'self' https://*.vscode-cdn.net");
    expect(first.webview.html).not.toContain('agent-team-csp-source.invalid');
  });

  it('without a folder, a delegation says to open one', async () => {
    extension = activateExtension({
      folder: false,
      userSettings: { 'agentTeam.provider': 'openai', 'agentTeam.baseUrl': 'http://127.0.0.1:9/v1' },
    });
    expect(await extension.execute('agentTeam.delegate', 'Do it')).toBeUndefined();
    const error = fake.state.messages.find((message) => message.kind === 'error');
    expect(error?.message).toMatch(/needs a folder to work in\. Open the folder/);
    expect(error?.items).toContain('Open Folder\u2026');
  });
});

describe('manifest', () => {
  it('declares only the activation VS Code cannot derive: the proposal documents (views, commands, @team and the tool are implicit)', () => {
    expect(manifest.activationEvents).toEqual(['onFileSystem:agent-team-proposal']);
    expect(manifest.engines.vscode).toMatch(/^\^1\.(1\d\d|[89]\d)\./);
    expect(manifest.contributes.chatParticipants).toEqual([expect.objectContaining({ id: 'agentTeam.team', name: 'team' })]);
    expect(manifest.contributes.languageModelTools).toEqual([
      expect.objectContaining({
        name: 'agentTeam_delegate',
        inputSchema: expect.objectContaining({ required: ['subagent_type', 'description', 'prompt'] }),
      }),
    ]);
  });

  it('binds keys no operating system takes, and the hunk keys only where a proposal has the focus, never in the user\u2019s own files', () => {
    const keys = manifest.contributes.keybindings;
    const delegate = keys.find((binding) => binding.command === 'agentTeam.delegate')!;
    // Not Ctrl+Alt+D (a "show desktop" on Linux desktops) nor Cmd+Alt+D (the macOS Dock).
    expect([delegate.key, delegate.mac]).toEqual(['ctrl+shift+alt+d', 'cmd+shift+alt+d']);
    for (const command of ['agentTeam.acceptHunk', 'agentTeam.rejectHunk']) {
      // Only a proposal's editor or one of our multi-file reviews has them, never the user's own files. The
      // proposal is editable (the user may edit it before accepting), so the keys must never be ones that
      // type: Ctrl+Alt is AltGr on Windows (Polish AltGr+N is ń) and would decide a hunk while typing.
      const binding = keys.find((each) => each.command === command)!;
      expect(binding.when).toBe('editorTextFocus && (resourceScheme == agent-team-proposal || agentTeam.changesReviewActive)');
      expect(binding.key).toMatch(/^shift\+alt\+[yn]$/);
      expect(binding.mac).toMatch(/^cmd\+alt\+[yn]$/);
    }
  });

  it('offers the commands that act on a task only when there is one, lets @team be found by what it does, and completes the key step for key-free models', () => {
    const palette = (manifest.contributes as unknown as { menus: { commandPalette: Array<{ command: string; when?: string }> } }).menus
      .commandPalette;
    for (const command of ['agentTeam.showTask', 'agentTeam.requestChanges', 'agentTeam.rerunAndCompare', 'agentTeam.exportTrace']) {
      expect(palette.find((entry) => entry.command === command)?.when, command).toBe('agentTeam.hasTasks');
    }
    const contributes = manifest.contributes as unknown as {
      chatParticipants: Array<{ id: string; disambiguation?: Array<{ category: string; description: string; examples: string[] }> }>;
      walkthroughs: Array<{ steps: Array<{ id: string; completionEvents: string[] }> }>;
      configuration: { properties: Record<string, { default?: unknown; enum?: string[] }> };
    };
    const team = contributes.chatParticipants.find((participant) => participant.id === 'agentTeam.team')!;
    expect(team.disambiguation?.[0]?.examples.length).toBeGreaterThan(0);
    const keyStep = contributes.walkthroughs[0]!.steps.find((step) => step.id === 'setApiKey')!;
    expect(keyStep.completionEvents).toContain('onContext:agentTeam.modelConfigured');
    // The Settings UI shows what happens: the provider is inferred unless one is chosen.
    expect(contributes.configuration.properties['agentTeam.provider']).toMatchObject({
      default: '',
      enum: ['', 'anthropic', 'openai', 'vscode-lm'],
    });
  });

  it('keeps the base URL to the machine, and settings that need no reload', () => {
    const properties = manifest.contributes.configuration.properties as Record<string, { scope?: string; markdownDescription?: string }>;
    expect(properties['agentTeam.baseUrl']!.scope).toBe('machine');
    expect(properties['agentTeam.maxConcurrentTasks']!.markdownDescription).not.toMatch(/reload/i);
  });

  it('says every user-visible string through package.nls.json, each key defined', () => {
    const raw = readFileSync(nodePath.join(__dirname, '../../package.json'), 'utf8');
    const keys = [...raw.matchAll(/"%([^%"]+)%"/g)].map((match) => match[1]!);
    expect(keys.length).toBeGreaterThan(50);
    for (const key of keys) expect(strings[key], key).toBeTypeOf('string');
    expect(JSON.parse(raw).contributes.commands.every((command: { title: string }) => /^%command\..+\.title%$/.test(command.title))).toBe(
      true,
    );
  });

  it('contributes the contract: container, view, commands with their category, settings and defaults', () => {
    expect(manifest.contributes.viewsContainers.activitybar.map((container) => container.id)).toEqual(['agentTeam']);
    expect(manifest.contributes.views.agentTeam).toEqual([
      expect.objectContaining({ id: 'agentTeam.tasks', name: 'Tasks', type: 'webview' }),
    ]);
    for (const command of contractCommands) {
      expect(manifest.contributes.commands).toContainEqual(expect.objectContaining({ command, category: 'Agent Team' }));
    }
    const properties = manifest.contributes.configuration.properties;
    expect(properties['agentTeam.maxConcurrentTasks'].default).toBe(4);
    expect(properties['agentTeam.autoBackgroundSeconds'].default).toBe(120);
    expect(properties['agentTeam.maxDepth'].default).toBe(3);
    for (const setting of ['agentTeam.provider', 'agentTeam.model', 'agentTeam.baseUrl', 'agentTeam.roleModels'])
      expect(properties[setting]).toBeDefined();
    expect(JSON.stringify(properties)).not.toMatch(/apiKey"/);
  });

  it('puts Stop All and Clear History in the view title and the file decisions in the proposal editor title', () => {
    const viewTitle = manifest.contributes.menus['view/title'];
    expect(viewTitle).toContainEqual(
      expect.objectContaining({
        command: 'agentTeam.stopAll',
        when: 'view == agentTeam.tasks && agentTeam.hasRunningTasks',
        group: expect.stringMatching(/^navigation/),
      }),
    );
    expect(viewTitle).toContainEqual(
      expect.objectContaining({ command: 'agentTeam.reviewChanges', when: 'view == agentTeam.tasks && agentTeam.hasPendingChanges' }),
    );
    expect(viewTitle).toContainEqual(expect.objectContaining({ command: 'agentTeam.clearHistory', when: 'view == agentTeam.tasks' }));
    const editorTitle = manifest.contributes.menus['editor/title'];
    for (const command of ['agentTeam.acceptFile', 'agentTeam.rejectFile']) {
      expect(editorTitle).toContainEqual(expect.objectContaining({ command, when: 'resourceScheme == agent-team-proposal' }));
    }
    expect(manifest.contributes.menus['editor/context']).toContainEqual(expect.objectContaining({ command: 'agentTeam.delegate' }));
  });

  it('declares limited support for untrusted workspaces with the settings that could redirect keys restricted', () => {
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe('limited');
    expect(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.sort()).toEqual(
      ['agentTeam.baseUrl', 'agentTeam.model', 'agentTeam.provider', 'agentTeam.roleModels'].sort(),
    );
  });
});
