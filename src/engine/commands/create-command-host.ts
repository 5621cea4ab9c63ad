/**
 * The `CommandHost` the CLI and the extension share: scratch copies of one workspace, the environment
 * without secrets, and the host's own rules for what runs.
 */
import type { Clock } from '../clock.js';
import type { CommandApproval, CommandHost } from './command-host.js';
import { commandEnvironment } from './command-environment.js';
import { ScratchCopies } from './scratch-copies.js';

export interface CommandHostOptions {
  workspaceRoot: string;
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
  clock?: Clock;
}

export function createCommandHost(options: CommandHostOptions): CommandHost {
  return {
    refusal: () => options.refusal?.(),
    allowedPatterns: () => options.allowedPatterns(),
    howToAllow: options.howToAllow,
    ...(options.approval ? { approval: options.approval } : {}),
    copies: new ScratchCopies({ workspaceRoot: options.workspaceRoot, ...(options.scratchDirectory ? { directory: options.scratchDirectory } : {}) }),
    environment: () => commandEnvironment(options.sourceEnvironment ?? process.env, { secretValues: options.secretValues?.() ?? [] }),
    ...(options.clock ? { clock: options.clock } : {}),
  };
}
