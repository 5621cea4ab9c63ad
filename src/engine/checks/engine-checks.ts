/**
 * The engine's checks: the service over the engine's command host (its scratch copies, sandbox, approval)
 * and folder trust, and the capability that tells the coordinator the verdict, when the host has checks on.
 */
import type { Capability } from '../capabilities/capability.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import type { CommandHost } from '../commands/command-host.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { checksCapability } from './checks-capability.js';
import { ChecksService } from './checks-service.js';
import type { ChecksSettings } from './checks-settings.js';
import type { CheckDefinition } from './types.js';

export interface EngineChecksParts {
  commands: CommandHost;
  changes: ChangeSetRegistry;
  taskManager: TaskManager;
  /** Whether the user trusted the folder's item for this check (the folder trusted, and this exact check in it). */
  trusts(check: CheckDefinition): boolean;
  howToTrust: string;
  secrets(): readonly string[];
  /** Default: checks are off (the service still runs them when a host asks: Run Checks Again). */
  settings?: ChecksSettings;
}

export function engineChecks(parts: EngineChecksParts): { service: ChecksService; capabilities: Capability[] } {
  const service = new ChecksService({
    host: parts.commands,
    trusts: (check) => parts.trusts(check),
    howToTrust: parts.howToTrust,
    secrets: parts.secrets,
  });
  const capabilities = parts.settings
    ? [checksCapability({ checks: service, settings: parts.settings, changes: parts.changes, taskManager: parts.taskManager })]
    : [];
  return { service, capabilities };
}
