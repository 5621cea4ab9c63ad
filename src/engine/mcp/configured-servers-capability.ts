/**
 * The MCP servers users configured for other tools (mcp-catalog.ts), for the roles whose `tools` name them
 * (`mcp__<server>__<tool>`, `mcp__<server>__*`): started only for a task of such a role (never for the run
 * as a whole, never a server no role names), through the same door as a role's own servers — the server
 * gate (folder trust; no stdio server without a sandbox) and the role servers' capability (the sandbox over
 * a scratch copy, its limits, its notices) — with the role's named tools only. A workspace server
 * (`.mcp.json`, `.vscode/mcp.json`) starts only in a trusted folder, only as the folder was trusted (a
 * server added or changed since is held back where the host trusted an exact list), and its first start in
 * the engine's life asks the user where the host can ask (VS Code); elsewhere (the CLI) the folder's trust,
 * which lists each server's command line, is the user's yes. A role's own `mcpServers` entry of the same
 * name is its own and wins.
 */
import type { Tool } from '../agent/tool.js';
import type { Capability, CapabilityGrant, CapabilityTask } from '../capabilities/capability.js';
import type { McpServerConfig } from '../roles/mcp-server-config.js';
import { isNamed, mcpServersNamed } from '../roles/server-tool-names.js';
import { type CatalogEntry, catalogServer, type McpCatalog } from './mcp-catalog.js';
import { type McpInputAnswers, resolveInputs } from './mcp-input-answers.js';
import type { McpInputAsker } from './mcp-inputs.js';
import { withInputs } from './mcp-inputs.js';
import { mcpToolName } from './mcp-tool-names.js';

/** What the user is asked before a workspace server first starts. */
export interface ServerUseRequest {
  taskId: string;
  role: string;
  server: string;
  file: string;
  /** Exactly what would run or be reached (its folder item's `runs`). */
  runs: string;
}

export interface ConfiguredServersHost {
  /** The servers, read at each task's start. */
  catalog(): Promise<McpCatalog>;
  /** True where the folder's own configuration may run. */
  workspaceTrusted(): boolean;
  /** How the user trusts the folder, said when its servers are held back. */
  howToTrust: string;
  /** The server's identity as a folder item: what trust and approval are recorded against. */
  itemOf(entry: CatalogEntry): { key: string; runs: string };
  /** Whether a workspace server is on the exact list the user trusted. Default: every server of a trusted folder. */
  trustsItem?(entry: CatalogEntry): boolean;
  /** Asks before a workspace server's first start (VS Code). Default: nobody; the folder's trust is the yes. */
  approveFirstUse?(request: ServerUseRequest, signal: AbortSignal): Promise<boolean>;
  /** Asks for `${input:id}` values. Default: nobody; a server that needs one is held back, saying so. */
  askInput?: McpInputAsker;
  /** Where `askInput` is not, how the user gives a server its value instead. */
  howToAnswer: string;
  /** The answers, kept for the engine's life. */
  answers: McpInputAnswers;
}

/** `inner`: the role servers' capability behind the server gate (team/capabilities.ts). */
export function configuredServersCapability(inner: Capability, host: ConfiguredServersHost): Capability {
  // A yes per server as configured, for the engine's life; two tasks starting it at once share one question.
  const approved = new Map<string, Promise<boolean>>();
  return {
    name: 'configured-mcp',
    async grant(task) {
      const named = mcpServersNamed(task.agent.serverTools ?? []);
      for (const own of Object.keys(task.agent.mcpServers ?? {})) named.delete(own);
      if (named.size === 0) return undefined;
      const catalog = await host.catalog();
      const problems: string[] = [];
      const groups = { workspace: {} as Record<string, McpServerConfig>, user: {} as Record<string, McpServerConfig> };
      // A folder's role reaching the user's own server (and its credentials) is the folder's choice too: gated as the folder's.
      const roleIsFolders = (task.agent.origin ?? 'workspace') === 'workspace';
      for (const name of named.keys()) {
        const entry = catalogServer(catalog, name);
        const ready = entry
          ? await readyConfig(entry, task, host, approved)
          : `MCP server '${name}' was not started: no server of that name is configured (.mcp.json, .vscode/mcp.json, or the user's MCP file).`;
        if (typeof ready === 'string') problems.push(ready);
        else groups[roleIsFolders ? 'workspace' : entry!.origin][name] = ready;
      }
      const grants: CapabilityGrant[] = [];
      for (const origin of ['workspace', 'user'] as const) {
        if (Object.keys(groups[origin]).length === 0) continue;
        const granted = await inner.grant({ ...task, agent: { ...task.agent, mcpServers: groups[origin], origin } });
        if (granted) grants.push(granted);
      }
      return merged(grants, named, problems);
    },
  };
}

/** The configuration to start, inputs filled in; or why it does not start. */
async function readyConfig(
  entry: CatalogEntry,
  task: CapabilityTask,
  host: ConfiguredServersHost,
  approved: Map<string, Promise<boolean>>,
): Promise<McpServerConfig | string> {
  const held = (why: string) => `MCP server '${entry.name}' (${entry.file}) was not started: ${why}.`;
  if (entry.refused !== undefined || entry.config === undefined) return held(entry.refused ?? 'its entry cannot be used');
  const item = host.itemOf(entry);
  if (!host.workspaceTrusted() && (entry.origin === 'workspace' || (task.agent.origin ?? 'workspace') === 'workspace')) {
    // Nothing of an untrusted folder is asked for or started, not even its inputs' questions; nor does its role reach the user's servers.
    const why =
      entry.origin === 'workspace'
        ? 'this folder is not trusted'
        : `role '${task.agent.role}' is defined by this folder, which is not trusted`;
    return held(`${why} (${host.howToTrust})`);
  }
  if (entry.origin === 'workspace' && host.trustsItem && !host.trustsItem(entry))
    return held(`it was added or changed since the folder was trusted (${host.howToTrust} again)`);
  const answers = await resolveInputs(entry, host.answers, host.askInput, task.context.signal);
  if (typeof answers === 'string') return held(`${answers}${host.askInput ? '' : ` (${host.howToAnswer})`}`);
  if (entry.origin === 'workspace' && host.approveFirstUse) {
    const request = { taskId: task.taskId, role: task.agent.role, server: entry.name, file: entry.file, runs: item.runs };
    const yes = await firstUseAnswer(item.key, approved, task, () => host.approveFirstUse!(request, task.context.signal));
    if (yes === undefined) return held('the question whether to start it went unanswered (the task that asked was stopped)');
    if (!yes) return held('the user did not allow it');
  }
  return withInputs(entry.config, answers);
}

/**
 * The user's answer about a server as configured (`key`), asked once for the engine's life: the question
 * is put once the task shows waiting, and another task starting the same server meanwhile waits for the
 * same answer. A no, or a question its task stopped waiting for (undefined), is asked again next time.
 */
async function firstUseAnswer(
  key: string,
  approved: Map<string, Promise<boolean>>,
  task: CapabilityTask,
  ask: () => Promise<boolean>,
): Promise<boolean | undefined> {
  const asked = approved.get(key);
  if (asked) return task.context.waitForUser(asked).catch(() => undefined);
  let settle: (answer: Promise<boolean>) => void = () => {};
  const shared = new Promise<boolean>((resolve, reject) => (settle = (answer) => void answer.then(resolve, reject)));
  // Handled here: nobody else may be waiting on it when it fails.
  shared.catch(() => undefined);
  approved.set(key, shared);
  const yes = await task.context
    .waitForUser(() => {
      const answer = ask();
      settle(answer);
      return answer;
    })
    .catch(() => undefined);
  if (yes !== true) approved.delete(key);
  settle(yes === undefined ? Promise.reject(new Error('unanswered')) : Promise.resolve(yes));
  return yes;
}

/** The grants as one, with only the tools the role names, and a line for each named tool no server has. */
function merged(grants: readonly CapabilityGrant[], named: ReadonlyMap<string, ReadonlySet<string>>, problems: string[]): CapabilityGrant {
  const tools: Tool[] = [];
  const found = new Set<string>();
  for (const tool of grants.flatMap((grant) => grant.tools ?? [])) {
    for (const [server, names] of named) {
      if (!tool.name.startsWith(`mcp__${server}__`)) continue;
      const wanted = names.has('*') || [...names].some((name) => mcpToolName(server, name) === tool.name);
      if (wanted) tools.push(tool);
      found.add(tool.name);
    }
  }
  const started = new Set(grants.flatMap((grant) => grant.tools ?? []).map((tool) => tool.name.split('__')[1]));
  for (const [server, names] of named) {
    if (!started.has(server) || isNamed(names, '*')) continue;
    for (const name of names)
      if (!found.has(mcpToolName(server, name)))
        problems.push(`MCP server '${server}' has no tool '${name}' (the role names mcp__${server}__${name}).`);
  }
  const instructions = [
    ...grants.flatMap((grant) => (grant.instructions ? [grant.instructions] : [])),
    ...(problems.length > 0 ? [`# Unavailable tools\n${problems.join('\n')}`] : []),
  ];
  return {
    tools,
    notices: [...grants.flatMap((grant) => grant.notices ?? []), ...problems],
    ...(instructions.length > 0 ? { instructions: instructions.join('\n\n') } : {}),
    release: async () => {
      await Promise.all(grants.map((grant) => grant.release?.()));
    },
  };
}
