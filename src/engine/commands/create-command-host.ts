/**
 * The `CommandHost` the CLI and the extension share: scratch copies of one workspace, the environment
 * without secrets, and the host's own rules for what runs.
 */
import { homedir } from 'node:os';
import type { Clock } from '../clock.js';
import type { CommandApproval, CommandHost } from './command-host.js';
import { childEnvironment } from './child-environment.js';
import { defaultResourceLimits, type ResourceLimits } from './sandbox/resource-limits.js';
import { detectSandbox, type SandboxAvailability } from './sandbox/sandbox-availability.js';
import { type SandboxSetting, type SandboxState, sandboxState } from './sandbox/sandbox-state.js';
import { ScratchCopies } from './scratch-copies.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { isTerminal } from '../tasks/types.js';

export interface CommandHostOptions {
  workspaceRoot: string;
  /** Whose trees' ends remove their scratch copies. */
  taskManager: TaskManager;
  allowedPatterns(): readonly string[];
  howToAllow: string;
  approval?: CommandApproval;
  /** Default: commands may always run. */
  refusal?(): string | undefined;
  /** The configured API keys, dropped by value whatever variable holds them. Default: none. */
  secretValues?(): readonly string[];
  /** The environment commands start from. Default: this process's. */
  sourceEnvironment?: Readonly<Record<string, string | undefined>>;
  /** Where scratch copies are made. Default: the system's temporary directory. */
  scratchDirectory?: string;
  /** Which kind of scratch copy (ScratchCopiesOptions.kind). Default `auto`: an overlay where the kernel allows one. */
  scratchCopyKind?: 'auto' | 'overlay' | 'git';
  clock?: Clock;
  /** `agentTeam.sandbox` / `--no-sandbox`, read at each command. Default: `auto`. */
  sandbox?(): SandboxSetting;
  /** Whether this machine can sandbox commands. Default: found by trying (detectSandbox), once. */
  detectSandbox?(): Promise<SandboxAvailability>;
  /** Every command gets the network (`agentTeam.commandNetwork: "on"`, `--allow-network`). Default: none does. */
  networkForAll?(): boolean;
  /** Commands that get the network (`agentTeam.networkCommands`, `--allow-network-command`). Default: none. */
  networkPatterns?(): readonly string[];
  /** How the user runs commands without a sandbox (the CLI's flag, the extension's setting). */
  howToRunUnsandboxed?: string;
  /** Default: defaultResourceLimits. */
  limits?: ResourceLimits;
  /** The user's home, hidden from sandboxed commands. Default: os.homedir(). */
  userHome?: string;
  /** Variables the user names to pass to commands as well (`--pass-env`, `agentTeam.passEnvironment`). */
  passNames?(): readonly string[];
}

/** A command host, and how to end it (its scratch copies removed, its listener gone). */
export type DisposableCommandHost = CommandHost & { dispose(): Promise<void> };

export function createCommandHost(options: CommandHostOptions): DisposableCommandHost {
  const copies = new ScratchCopies({
    workspaceRoot: options.workspaceRoot,
    ...(options.sourceEnvironment ? { environment: options.sourceEnvironment } : {}),
    ...(options.scratchDirectory ? { directory: options.scratchDirectory } : {}),
    ...(options.scratchCopyKind ? { kind: options.scratchCopyKind } : {}),
  });
  const stopListening = removeCopiesWhenTreesEnd(options.taskManager, copies);
  let availability: Promise<SandboxAvailability> | undefined;
  const sandbox = async (): Promise<SandboxState> => {
    const setting = options.sandbox?.() ?? 'auto';
    if (setting === 'off') return sandboxState('off', undefined);
    // Where bwrap is installed is a fact of this machine, found on this process's PATH.
    availability ??= (options.detectSandbox ?? (() => detectSandbox(process.env)))();
    return sandboxState(setting, await availability);
  };
  return {
    refusal: () => options.refusal?.(),
    allowedPatterns: () => options.allowedPatterns(),
    howToAllow: options.howToAllow,
    ...(options.approval ? { approval: options.approval } : {}),
    copies,
    environment: () =>
      childEnvironment(options.sourceEnvironment ?? process.env, {
        secretValues: options.secretValues?.() ?? [],
        passNames: options.passNames?.() ?? [],
      }),
    ...(options.clock ? { clock: options.clock } : {}),
    sandbox,
    network: { all: () => options.networkForAll?.() ?? false, patterns: () => options.networkPatterns?.() ?? [] },
    workspaceRoot: options.workspaceRoot,
    userHome: options.userHome ?? homedir(),
    howToRunUnsandboxed: options.howToRunUnsandboxed ?? 'The user can turn the sandbox off to run commands without one.',
    limits: options.limits ?? defaultResourceLimits,
    async dispose() {
      stopListening();
      await copies.dispose();
    },
  };
}

/** A tree's copies go when its last task ends (a root may end while its background children run on). */
function removeCopiesWhenTreesEnd(taskManager: TaskManager, copies: ScratchCopies): () => void {
  return taskManager.onEvent((event) => {
    if (event.type !== 'task-end') return;
    const rootId = event.task.rootId;
    // Only trees that ran a command are looked at: a history of thousands of tasks is not walked per end.
    if (copies.count(rootId) === 0) return;
    if (taskManager.treeOf(rootId).some((task) => !isTerminal(task.status))) return;
    void copies.endTree(rootId);
  });
}
