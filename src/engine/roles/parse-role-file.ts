import { backgroundTasksField, readBackgroundTasks } from './background-tasks-field.js';
import { coordinatorName } from './coordinator.js';
import { type FrontMatter, parseYamlHeader, splitFrontMatter } from './front-matter.js';
import { parseLenientHeader } from './lenient-front-matter.js';
import { type RoleFileLocation, roleNameFromFileName } from './role-file-locations.js';
import { readMcpServers } from './mcp-server-config.js';
import { readA2aRole } from '../a2a/a2a-role-config.js';
import { readFallbackModels } from './fallback-models.js';
import { readRoleResultFields } from './role-result-fields.js';
import { planModeWarnings } from './permission-mode.js';
import { defaultWorkspaceRoleTools } from './tool-names.js';
import { type FieldReport, readTools } from './role-file-tools.js';
import type { KnownTools } from './known-tools.js';
import { type RoleDefinition, type RoleDiagnostic, type RoleMode, roleModes } from './types.js';

export interface RoleFileInput {
  /** Relative to the workspace root, `/`-separated. */
  path: string;
  fileName: string;
  text: string;
  location: RoleFileLocation;
  /** The tool names the capabilities declare (known-tools.ts); any other is reported and left out. */
  knownTools: KnownTools;
}

/** One file's outcome: the role, unless an error was found, and every problem noticed on the way. */
export interface ParsedRoleFile {
  role?: RoleDefinition;
  diagnostics: RoleDiagnostic[];
}

/** Letters, digits, `-` and `_`, starting with a letter: safe in a tool input, a CLI flag and a file name. */
const roleNamePattern = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export function isValidRoleName(name: string): boolean {
  return roleNamePattern.test(name);
}

export function parseRoleFile(input: RoleFileInput): ParsedRoleFile {
  const diagnostics: RoleDiagnostic[] = [];
  const report = (severity: RoleDiagnostic['severity'], message: string, line?: number) =>
    diagnostics.push({ path: input.path, severity, message, ...(line === undefined ? {} : { line }) });

  const split = splitFrontMatter(input.text);
  if (!split.ok) {
    report('error', split.message, split.line);
    return { diagnostics };
  }
  const frontMatter = readHeader(split.value, input.location, report);
  if (!frontMatter) return { diagnostics };
  const { fields, lineOf } = frontMatter;
  const errorAt = (field: string, message: string) => report('error', message, lineOf(field));
  const warnAt = (field: string, message: string) => report('warning', message, lineOf(field));

  // Only our own format runs roles remotely; the imported formats' tools would run them locally.
  const a2a = input.location.fields.has('a2a_url') ? readA2aRole(fields) : { problems: [], ignored: [] };
  const reported = new Set(a2a.problems.map((problem) => problem.field));
  if (!input.location.lenient) {
    for (const field of Object.keys(fields)) {
      if (!input.location.fields.has(field) && !reported.has(field)) {
        warnAt(field, `unknown field '${field}' is ignored (fields: ${[...input.location.fields].join(', ')})`);
      }
    }
  }

  const name = readName(fields.name, input, errorAt, warnAt);

  let description: string | undefined;
  if (typeof fields.description === 'string' && fields.description.trim() !== '') description = fields.description.trim();
  else if (fields.description === undefined || fields.description === null)
    report('error', "is missing 'description': say what the role does and when to use it");
  else errorAt('description', "'description' must be text that says what the role does and when to use it");

  const instruction = split.value.body.trim();
  const backgroundTasks = readBackgroundTasks(fields[backgroundTasksField], errorAt);
  // A remote agent has its own instructions; the body of its role file is a note for the team, never sent.
  const meantRemote = input.location.fields.has('a2a_url') && fields.a2a_url !== undefined && fields.a2a_url !== null;
  if (instruction === '' && !meantRemote) report('error', "has no instructions: write the role's system prompt after the closing '---'");
  for (const problem of a2a.problems) errorAt(problem.field, problem.message);
  for (const field of a2a.ignored)
    warnAt(
      field,
      `'${field}' is ignored: the role runs on the remote agent at 'a2a_url', which has its own model, tools and way of working`,
    );

  let serverTools: string[] = [];
  let tools = readTools(fields.tools, 'tools', input, errorAt, warnAt, (named) => (serverTools = named));
  if (input.location.fields.has('disallowedTools') && fields.disallowedTools !== undefined && fields.disallowedTools !== null) {
    // Claude Code's denylist, applied to the allowlist (or to the defaults when there is none).
    const denied = readTools(fields.disallowedTools, 'disallowedTools', input, errorAt, () => {}) ?? [];
    tools = (tools ?? defaultWorkspaceRoleTools).filter((tool) => !denied.includes(tool));
  }

  const model = readModel(fields.model, errorAt);
  const fallbackModels = readFallbackModels(fields, errorAt);
  const mode = readMode(fields.mode, errorAt);
  const maxTurnsField = fields.max_turns !== undefined ? 'max_turns' : 'maxTurns';
  const maxTurns = readMaxTurns(fields[maxTurnsField], maxTurnsField, errorAt);
  // GitHub's agent files call it `mcp-servers`, in the same shape (with `type: local` for stdio).
  const mcpField = fields.mcpServers === undefined && fields['mcp-servers'] !== undefined ? 'mcp-servers' : 'mcpServers';
  const mcp = readMcpServers(fields[mcpField]);
  for (const problem of mcp.problems) errorAt(mcpField, problem);
  const results = readRoleResultFields(fields, errorAt, warnAt);
  if (results.permissionMode === 'plan')
    for (const warning of planModeWarnings(tools, mcp.servers !== undefined)) warnAt('permissionMode', warning);

  if (diagnostics.some((diagnostic) => diagnostic.severity === 'error') || !name || !description) return { diagnostics };
  const role: RoleDefinition = {
    name,
    description,
    instruction,
    mode,
    ...(backgroundTasks === undefined ? {} : { backgroundTasks }),
    source: { kind: 'file', path: input.path, format: input.location.format },
  };
  if (tools !== undefined) role.tools = tools;
  if (serverTools.length > 0) role.serverTools = serverTools;
  if (model !== undefined) role.model = model;
  if (fallbackModels !== undefined) role.fallbackModels = fallbackModels;
  if (maxTurns !== undefined) role.maxTurns = maxTurns;
  if (mcp.servers !== undefined && Object.keys(mcp.servers).length > 0) role.mcpServers = mcp.servers;
  Object.assign(role, results);
  // Read-only means no MCP server either: its tools may change anything.
  if (role.permissionMode === 'plan') {
    delete role.mcpServers;
    delete role.serverTools;
  }
  if (a2a.remote) {
    // Nothing of it runs here: no local tools (so any delegator may reach it), no MCP servers, one turn.
    role.a2aUrl = a2a.remote.url;
    if (a2a.remote.authEnv !== undefined) role.a2aAuthEnv = a2a.remote.authEnv;
    role.tools = [];
    role.mode = 'single_turn';
    delete role.mcpServers;
    delete role.serverTools;
    delete role.model;
    delete role.maxTurns;
  }
  return { role, diagnostics };
}

type Report = (severity: RoleDiagnostic['severity'], message: string, line?: number) => void;

function readHeader(split: Parameters<typeof parseYamlHeader>[0], location: RoleFileLocation, report: Report): FrontMatter | undefined {
  const strict = parseYamlHeader(split);
  if (strict.ok) return strict.value;
  const lenient = location.lenient ? parseLenientHeader(split, location.fields) : undefined;
  if (!lenient) {
    report('error', strict.message, strict.line);
    return undefined;
  }
  report(
    'warning',
    `${strict.message}. Read it as 'key: value' lines instead; quote values that contain ': ' (or use a '|' block) to make it valid YAML`,
    strict.line,
  );
  return lenient;
}

function readName(value: unknown, input: RoleFileInput, errorAt: FieldReport, warnAt: FieldReport): string | undefined {
  const fromFile = roleNameFromFileName(input.fileName, input.location);
  let name: string;
  if (value === undefined || value === null) {
    if (!isValidRoleName(fromFile)) {
      errorAt(
        'name',
        `the file name gives the role name '${fromFile}', which is not valid: ${nameRule(fromFile)}; rename the file or add a 'name' field`,
      );
      return undefined;
    }
    name = fromFile;
  } else if (typeof value !== 'string' || !isValidRoleName(value.trim())) {
    const written = String(value).trim();
    // Copilot's `name` is a display name ("Code Reviewer"); its file name is the identifier.
    if (input.location.format === 'github' && isValidRoleName(fromFile)) {
      warnAt('name', `name '${written}' is not a valid role name, so the role is called '${fromFile}' after its file`);
      name = fromFile;
    } else {
      const fileNote = input.location.format === 'github' ? `, and neither is the file name '${fromFile}'` : '';
      errorAt('name', `name '${written}' is not a valid role name${fileNote}: ${nameRule(written)}`);
      return undefined;
    }
  } else {
    name = value.trim();
  }
  if (name === coordinatorName) {
    errorAt('name', `the name '${coordinatorName}' is reserved for the agent that delegates to the roles; choose another name`);
    return undefined;
  }
  return name;
}

function nameRule(name: string): string {
  const suggestion = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^[^a-z]+|-+$/g, '');
  const example = isValidRoleName(suggestion) ? suggestion : 'code-reviewer';
  return `use letters, digits, '-' and '_', starting with a letter, at most 64 characters (for example '${example}')`;
}

/** A role's `model` (exported for workflows' inline agents, which take it as role files do). */
export function readModel(value: unknown, errorAt: FieldReport): string | undefined {
  // Copilot accepts a list of models to try in order; the first is the one asked for.
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return undefined;
  if (typeof first !== 'string') {
    errorAt('model', "'model' must be a model id such as claude-sonnet-4-5, or 'inherit'");
    return undefined;
  }
  const model = first.trim();
  // `inherit` (Claude Code) means the run's model, which is what no override means here.
  return model === '' || model.toLowerCase() === 'inherit' ? undefined : model;
}

function readMode(value: unknown, errorAt: FieldReport): RoleMode {
  // The contract's default: an agent that does its task and answers, as every agent did before modes.
  if (value === undefined || value === null) return 'single_turn';
  if (typeof value === 'string' && (roleModes as readonly string[]).includes(value)) return value as RoleMode;
  errorAt('mode', `mode '${String(value)}' is not one of ${roleModes.join(', ')}`);
  return 'single_turn';
}

function readMaxTurns(value: unknown, field: string, errorAt: FieldReport): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  errorAt(field, `'${field}' must be a positive whole number (got '${String(value)}')`);
  return undefined;
}
