/**
 * The one way to build the engine, and the one owner of what it builds: the task manager and change sets
 * (engine-core.ts), the roles from the folder's and the user's files (engine-roles.ts), the capabilities,
 * telemetry, and the shutdown (engine-shutdown.ts). The CLI, the extension, the MCP server and the A2A
 * server each supply only ports (`EngineHost`: workspace access, trust, who allows commands, the user
 * channel, the secrets, the history store, the clock, warnings); no host constructs an engine part
 * (test/architecture/composition.test.ts).
 */
import { homedir } from 'node:os';
import type { Capability } from '../capabilities/capability.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import type { ChecksService } from '../checks/checks-service.js';
import { createCommandHost, type DisposableCommandHost } from '../commands/create-command-host.js';
import { MessageInbox } from '../conversation/message-inbox.js';
import { ConfigurationError } from '../errors.js';
import { McpInputAnswers } from '../mcp/mcp-input-answers.js';
import type { Model } from '../model/types.js';
import type { RoleRegistry } from '../roles/role-registry.js';
import type { RoleLoadResult } from '../roles/types.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { EngineTelemetry } from '../telemetry/telemetry-types.js';
import type { AgentTeam } from './agent-team.js';
import { engineCapabilities } from './engine-capabilities.js';
import { createEngineCore } from './engine-core.js';
import type { EngineHost, TeamSettings } from './engine-host.js';
import { createTeamRoles } from './engine-roles.js';
import { engineTeams } from './engine-teams.js';

export type { EngineHost, TeamSettings } from './engine-host.js';

export interface Engine {
  readonly roles: RoleRegistry;
  readonly taskManager: TaskManager;
  readonly changes: ChangeSetRegistry;
  /** Messages for running tasks, shared by every team of the engine. */
  readonly inbox: MessageInbox;
  readonly commands: DisposableCommandHost;
  /** The repository's own checks on proposals (src/engine/checks). */
  readonly checks: ChecksService;
  /** What agents may do beyond files and delegation, in the order they are asked. */
  readonly capabilities: readonly Capability[];
  /** The team with these limits, made anew when they change (a team holds no state of its own, so replacing it is free). */
  team(settings?: TeamSettings): AgentTeam;
  /**
   * Reads the roles, loads the history's tasks and starts telemetry; once (later calls return the first's
   * result). Before the first run; the roles' problems are in the result, for the host to show.
   */
  open(): Promise<RoleLoadResult>;
  /**
   * Ends everything the engine holds, once, in the one order (engine-shutdown.ts): role watchers and checks,
   * then every task, then the capabilities' servers and scratch copies, then the history, then telemetry.
   * Idempotent: a second call returns the first's promise.
   */
  close(): Promise<void>;
}

export function createEngine(host: EngineHost): Engine {
  const core = host.core ?? createEngineCore({ ...host.tasks, ...(host.clock ? { clock: host.clock } : {}), onWarning: host.warn });
  const { taskManager, changes, shutdown } = core;
  const roles = createTeamRoles({
    root: host.workspace.root,
    home: host.userHome ?? homedir(),
    // The watcher's debounce on the system clock, as before: a host's clock measures the tasks' deadlines.
    ...host.roleSources,
  });
  // The passwords typed for configured servers' inputs are secrets from then on, like the keys.
  const answers = new McpInputAnswers();
  const secrets = () => [...host.secrets(), ...answers.secrets()];
  const commands = createCommandHost({
    ...host.commands,
    workspaceRoot: host.workspace.root,
    taskManager,
    secretValues: secrets,
    sourceEnvironment: host.environment,
    ...(host.clock ? { clock: host.clock } : {}),
  });
  const userChannel = host.userChannel?.(taskManager);
  const { capabilities, checks, plans } = engineCapabilities(host, { commands, changes, taskManager, secrets, answers, userChannel });
  let telemetry: EngineTelemetry | undefined;
  const observeModel = (taskId: string, model: Model): Model => {
    const observed = host.observeModel ? host.observeModel(taskId, model) : model;
    return telemetry ? telemetry.observeModel(taskId, observed) : observed;
  };
  const inbox = new MessageInbox(taskManager);
  const team = engineTeams(host, { taskManager, changes, roles, inbox, capabilities, plans, secrets, observeModel });

  shutdown.add('intake', () => roles.dispose());
  shutdown.add('intake', () => checks.service.dispose());
  shutdown.add('capabilities', () => Promise.allSettled(capabilities.map((capability) => capability.close?.())));
  shutdown.add('telemetry', () => telemetry?.shutdown());
  let opening: Promise<RoleLoadResult> | undefined;
  return {
    roles,
    taskManager,
    changes,
    inbox,
    commands,
    checks: checks.service,
    capabilities,
    team,
    open: () =>
      (opening ??= (async () => {
        // Opening a closed engine would start role watchers and telemetry nothing will end.
        if (shutdown.closed) throw new ConfigurationError('The engine is closed: build a new one to run agents again.');
        const loaded = await roles.load();
        // A core the host brought is loaded by the host, when its views want it (the extension's at activation).
        if (!host.core) await core.load();
        if (!shutdown.closed) telemetry = await host.telemetry?.(taskManager, () => host.secrets());
        // Started while the engine was closing: nothing else will send its spans.
        if (shutdown.closed) await telemetry?.shutdown();
        return loaded;
      })()),
    close: () => core.close(),
  };
}
