/**
 * kagent's inline sub-agents: a workflow step whose agent is defined in the workflow file itself, so a
 * prompt used once needs no role file. kagent's field names, under the step's `agent`:
 *
 *   - agent:
 *       name: critic                                 # the task's role in the tree; a role name's rules
 *       systemMessage: You are a writing critic.     # its system prompt (a role file's body)
 *       model: sonnet                                # optional, as a role file's (default: the run's model)
 *       tools: [Read, Grep]                          # optional, as a role file's (default: read and propose edits)
 *       description: Critiques drafts.               # optional
 *     prompt: "Critique {draft}"
 *
 * Checked with the role files' own rules (isValidRoleName, canonicalToolName, readModel), and stricter
 * where a role file only warns: an unknown tool or a tool restriction (`Bash(git:*)`) is an error here,
 * since the file is written for this product and a step that silently lost a tool would do other work
 * than its author meant. Whether the name clashes with a role is checked with the roles in view
 * (inline-agent-names.ts).
 */
import { readModel, isValidRoleName } from '../roles/parse-role-file.js';
import { canonicalToolName, type KnownTools } from '../roles/known-tools.js';
import type { ToolName } from '../roles/tool-names.js';
import type { RoleDefinition } from '../roles/types.js';

/** An agent defined inline in a workflow step. */
export interface InlineAgent {
  name: string;
  /** The system prompt. */
  systemMessage: string;
  /** Default: a note naming the workflow file. */
  description?: string;
  /** A model id or alias, as a role file's `model`. Default: the run's model. */
  model?: string;
  /** As a role file's `tools`: undefined means a workspace role's defaults, `[]` no tools at all. */
  tools?: readonly ToolName[];
  /** Workspace-relative path of the workflow file that defines it. */
  path: string;
}

const fields = ['name', 'systemMessage', 'description', 'model', 'tools'];

/** Other products' fields for the same thing, with what to write instead. */
const portingHints: Record<string, string> = {
  modelConfig: "kagent's modelConfig names a cluster resource; write model: <model id> (default: the run's model)",
  instruction: "the system prompt is systemMessage (kagent's name for it)",
  system_prompt: "the system prompt is systemMessage (kagent's name for it)",
};

type Report = (field: readonly (string | number)[], message: string) => void;

/** Reads `agent: {...}` of one step; undefined (after reporting each problem) when it is not sound. */
export function readInlineAgent(
  raw: Readonly<Record<string, unknown>>,
  path: string,
  /** The tool names the capabilities declare (known-tools.ts); an inline agent names only these. */
  knownTools: KnownTools,
  report: Report,
): InlineAgent | undefined {
  let sound = true;
  const fail = (field: readonly (string | number)[], message: string) => {
    sound = false;
    report(field, message);
  };
  for (const key of Object.keys(raw)) {
    if (!fields.includes(key)) fail([key], portingHints[key] ?? `unknown field "${key}" of an inline agent (fields: ${fields.join(', ')})`);
  }
  const name = typeof raw.name === 'string' ? raw.name.trim() : undefined;
  if (raw.name === undefined || raw.name === null) fail(['name'], 'is missing: an inline agent needs a name, shown in the task tree');
  // The value is not repeated: a name that breaks the rules may hold anything, escape sequences included.
  else if (name === undefined || !isValidRoleName(name))
    fail(
      ['name'],
      'is not a valid agent name: use letters, digits, "-" and "_", starting with a letter, at most 64 characters (e.g. critic)',
    );
  const systemMessage = typeof raw.systemMessage === 'string' ? raw.systemMessage.trim() : '';
  if (systemMessage === '')
    fail(
      ['systemMessage'],
      raw.systemMessage === undefined || raw.systemMessage === null
        ? 'is missing: say who the agent is and how it works (its system prompt)'
        : "must be text: the agent's system prompt",
    );
  let description: string | undefined;
  if (raw.description !== undefined && raw.description !== null) {
    description = typeof raw.description === 'string' ? raw.description.trim() : '';
    if (description === '' || description.length > 500) fail(['description'], 'must be text of 1 to 500 characters: what the agent does');
  }
  if (Array.isArray(raw.model)) fail(['model'], 'names one model here, e.g. model: sonnet');
  const model = Array.isArray(raw.model) ? undefined : readModel(raw.model, (_field, message) => fail(['model'], message));
  const tools = readTools(raw.tools, knownTools, fail);
  if (!sound || name === undefined) return undefined;
  return {
    name,
    systemMessage,
    path,
    ...(description === undefined ? {} : { description }),
    ...(model === undefined ? {} : { model }),
    ...(tools === undefined ? {} : { tools }),
  };
}

function readTools(value: unknown, known: KnownTools, fail: Report): ToolName[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    fail(['tools'], 'must be a list of tool names, e.g. [Read, Grep, Glob]');
    return undefined;
  }
  const tools: ToolName[] = [];
  value.forEach((entry: unknown, index) => {
    const tool = typeof entry === 'string' ? canonicalToolName(entry.trim(), known) : undefined;
    if (tool === undefined)
      fail(
        ['tools', index],
        `is not a tool of Agent Team (tools: ${known.join(', ')}); an inline agent names each tool exactly, without restrictions such as Bash(git:*)`,
      );
    else if (!tools.includes(tool)) tools.push(tool);
  });
  return tools;
}

/** The role an inline agent runs as: defined by the workflow's file, so a workspace's (or the user's) role. */
export function inlineAgentRole(agent: InlineAgent): RoleDefinition {
  const role: RoleDefinition = {
    name: agent.name,
    description: agent.description ?? `Defined inline in ${agent.path}`,
    instruction: agent.systemMessage,
    // A workflow step runs once and answers; it never talks with the user (a role file's default too).
    mode: 'single_turn',
    source: { kind: 'file', path: agent.path, format: 'agent-team' },
  };
  if (agent.model !== undefined) role.model = agent.model;
  if (agent.tools !== undefined) role.tools = agent.tools;
  return role;
}
