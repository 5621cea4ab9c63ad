/**
 * A team whose agents have `Bash`, over a real folder (a git repository or a plain folder), with real
 * scratch copies and real processes; only the models are scripted.
 */
import type { HookSettings } from '../../src/engine/hooks/hooks-capability.js';
import { type CapabilityHosts, teamCapabilities } from '../../src/engine/team/capabilities.js';
import type { UserChannel } from '../../src/engine/conversation/user-channel.js';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Clock } from '../../src/engine/clock.js';
import type { CommandApproval } from '../../src/engine/commands/command-host.js';
import { createCommandHost, type DisposableCommandHost } from '../../src/engine/commands/create-command-host.js';
import type { ResourceLimits } from '../../src/engine/commands/sandbox/resource-limits.js';
import type { SandboxAvailability } from '../../src/engine/commands/sandbox/sandbox-availability.js';
import { ChangeSetRegistry } from '../../src/engine/changes/registry.js';
import { TaskManager } from '../../src/engine/tasks/task-manager.js';
import { AgentTeam } from '../../src/engine/team/agent-team.js';
import { RoleRegistry } from '../../src/engine/roles/role-registry.js';
import { createWorkspaceToolbox } from '../../src/engine/file-tools/workspace-toolbox.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { NodeWorkspace } from '../../src/engine/workspace/node-workspace.js';
import { lastMessageText, MemoryRoleFiles } from '../delegation/team-harness.js';
import { knownToolNames } from '../../src/engine/team/capabilities.js';

export interface BashWorld {
  root: string;
  scratch: string;
  team: AgentTeam;
  taskManager: TaskManager;
  changes: ChangeSetRegistry;
  commands: DisposableCommandHost;
  model(role: string): ScriptedModel;
  dispose(): Promise<void>;
}

export interface BashWorldOptions {
  files: Record<string, string>;
  /** Make the folder a git repository with the files committed. Default true. */
  git?: boolean;
  patterns?: string[];
  approval?: CommandApproval;
  refusal?: () => string | undefined;
  sourceEnvironment?: Record<string, string | undefined>;
  secretValues?: string[];
  clock?: Clock;
  /** The OS sandbox: `off`, or what detection finds (injected to play a machine without one). */
  sandbox?: 'auto' | 'off';
  detectSandbox?: () => Promise<SandboxAvailability>;
  networkForAll?: boolean;
  limits?: ResourceLimits;
  /** The user's home, hidden from sandboxed commands. */
  userHome?: string;
  /** The scratch copy's kind. Default: `auto` (an overlay where this machine can mount one). */
  copyKind?: 'auto' | 'overlay' | 'git';
  /** Run the hooks of the folder's settings files (and of `userHome`'s), with this user channel. Default: none. */
  hooks?: Partial<Pick<HookSettings, 'enabled' | 'allowed' | 'allowsHook' | 'sandboxRefusal'>> & { userChannel?: UserChannel };
}

export async function createBashWorld(options: BashWorldOptions): Promise<BashWorld> {
  const root = await mkdtemp(path.join(tmpdir(), 'agent-team-bash-'));
  const scratch = await mkdtemp(path.join(tmpdir(), 'agent-team-bash-scratch-'));
  for (const [name, content] of Object.entries(options.files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
  if (options.git ?? true) commitAll(root);
  const taskManager = new TaskManager({ onWarning: () => {} });
  const changes = new ChangeSetRegistry();
  const roles = new RoleRegistry({ knownTools: knownToolNames, source: new MemoryRoleFiles() });
  await roles.load();
  const models = new Map<string, ScriptedModel>();
  const model = (role: string) => {
    if (!models.has(role)) models.set(role, new ScriptedModel([], { modelId: role }));
    return models.get(role) as ScriptedModel;
  };
  const commands = createCommandHost({
    workspaceRoot: root,
    taskManager,
    allowedPatterns: () => options.patterns ?? [],
    howToAllow: 'Allow it with --allow-command.',
    ...(options.approval ? { approval: options.approval } : {}),
    ...(options.refusal ? { refusal: options.refusal } : {}),
    sourceEnvironment: options.sourceEnvironment ?? process.env,
    secretValues: () => options.secretValues ?? [],
    scratchDirectory: scratch,
    ...(options.copyKind ? { scratchCopyKind: options.copyKind } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sandbox ? { sandbox: () => options.sandbox ?? 'auto' } : {}),
    ...(options.detectSandbox ? { detectSandbox: options.detectSandbox } : {}),
    ...(options.networkForAll ? { networkForAll: () => true } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.userHome ? { userHome: options.userHome } : {}),
  });
  const team = new AgentTeam({
    taskManager,
    roles,
    toolbox: createWorkspaceToolbox({ workspace: new NodeWorkspace(root), changes, taskManager }),
    modelFor: (role) => model(role),
    capabilities: teamCapabilities({ commands, ...hookHosts(root, options) }),
  });
  return {
    root,
    scratch,
    team,
    taskManager,
    changes,
    commands,
    model,
    async dispose() {
      await taskManager.close();
      roles.dispose();
      await commands.dispose();
      await rm(root, { recursive: true, force: true });
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

function hookHosts(root: string, options: BashWorldOptions): Partial<CapabilityHosts> {
  if (!options.hooks) return {};
  const { enabled, allowed, userChannel, ...more } = options.hooks;
  const hooks = {
    root,
    ...(options.userHome ? { home: options.userHome } : {}),
    enabled: enabled ?? (() => true),
    allowed: allowed ?? (() => true),
    ...more,
  };
  return { hooks, ...(userChannel ? { userChannel } : {}) };
}

/** Both kinds of scratch copy, each test of the commands run on both. */
export const copyKinds = ['overlay', 'git'] as const;

export function commitAll(root: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@localhost', '-c', 'init.defaultBranch=main', ...args], {
      cwd: root,
      stdio: 'pipe',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
}

/** Processes of this machine whose command line holds `marker` (as the host's /proc shows them). */
export function processesMarked(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let commandLine = '';
    try {
      commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (commandLine.includes(marker)) found.push(Number(entry));
  }
  return found;
}

/** Runs one command as the reviewer of `world` and returns the tool result it read. */
export async function runAsReviewer(world: BashWorld, command: string): Promise<string> {
  world.model('reviewer').enqueue([ScriptedModel.toolCall('Bash', { command })], 'Done.');
  await world.team.delegate({ role: 'reviewer', prompt: 'Run it' });
  return lastMessageText(world.model('reviewer').calls.at(-1)!.request);
}
