/**
 * The tools the host itself offers besides MCP servers — in VS Code, those other extensions registered
 * (`vscode.lm.tools`, called with `vscode.lm.invokeTool`) — for the roles whose `tools` name them as
 * `vscode__<tool>` or `vscode__*`. The engine reaches them only through this port (it never imports
 * `vscode`); the extension supplies it (src/extension/language-model/vscode-tools.ts). Such a tool runs
 * in the host as its extension wrote it, not in the sandbox: only the tools a role names are offered, a
 * role naming `vscode__*` gets every one but ours, and each call's result is capped as an MCP tool's is.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { Tool } from '../agent/tool.js';
import type { Capability } from '../capabilities/capability.js';
import { isNamed, vscodeToolsNamed } from '../roles/server-tool-names.js';

export interface HostToolInfo {
  /** The host's name for it (`copilot_findFiles`, `mcp_github_search`). */
  name: string;
  description: string;
  /** Its input's JSON Schema. Default: any object. */
  inputSchema?: Record<string, unknown>;
}

export interface HostToolPort {
  /** The tools registered now (read at each task's start: extensions come and go). */
  list(): readonly HostToolInfo[];
  /** Calls one; resolves with its result as text; rejects with why it failed (or once `signal` aborts). */
  invoke(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<string>;
}

const maxLength = 64;
const maxResultCharacters = 100_000;
const maxSchemaCharacters = 20_000;
/** How long one call may take. */
const callTimeoutMs = 120_000;

/** `vscode__<tool>`, fitted to every provider's rule for tool names as MCP tools' names are. */
export function hostToolName(tool: string): string {
  const full = `vscode__${tool}`;
  const safe = full.replace(/[^A-Za-z0-9_-]/g, '_');
  if (safe === full && safe.length <= maxLength) return safe;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${safe.slice(0, maxLength - hash.length - 1)}_${hash}`;
}

export function hostToolsCapability(port: HostToolPort): Capability {
  return {
    name: 'host-tools',
    grant(task) {
      const named = vscodeToolsNamed(task.agent.serverTools ?? []);
      if (named.size === 0) return undefined;
      const available = port.list();
      const tools = available.filter((info) => isNamed(named, info.name)).map((info) => engineTool(info, port));
      const missing = [...named].filter((name) => name !== '*' && !available.some((info) => info.name === name));
      const problems = missing.map((name) => `VS Code has no tool '${name}' registered (the role names vscode__${name}).`);
      return { tools, ...(problems.length > 0 ? { notices: problems, instructions: `# Unavailable tools\n${problems.join('\n')}` } : {}) };
    },
  };
}

function engineTool(info: HostToolInfo, port: HostToolPort): Tool {
  const schema = info.inputSchema ?? {};
  return {
    name: hostToolName(info.name),
    description: `${info.description.slice(0, 2000)} (a tool VS Code offers: '${info.name}')`,
    inputSchema: z.record(z.string(), z.unknown()),
    jsonSchema: JSON.stringify(schema).length > maxSchemaCharacters ? { type: 'object' } : { type: 'object', ...schema },
    readOnly: false,
    timeoutMs: callTimeoutMs,
    async execute(input, context) {
      const text = await port.invoke(info.name, input as Record<string, unknown>, context.signal);
      return text.length > maxResultCharacters
        ? `${text.slice(0, maxResultCharacters)}\n[cut: the result had ${text.length} characters]`
        : text;
    },
  };
}
