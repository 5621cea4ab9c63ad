import { a2aRoleFields } from '../a2a/a2a-role-config.js';
import { fallbackModelFields } from './fallback-models.js';
import { type RoleFileFormat } from './types.js';
import { backgroundTasksField } from './background-tasks-field.js';

/** Where one format's role files live and how they are read. */
export interface RoleFileLocation {
  format: RoleFileFormat;
  /** Relative to the workspace root, `/`-separated. */
  directory: string;
  /** Only files whose names end with this are role files; the rest of the name is the default role name. */
  suffix: string;
  /** The fields the format defines. Agent Team's own format warns about others (likely typos). */
  fields: ReadonlySet<string>;
  /**
   * Whether a header that is not valid YAML is read as `key: value` lines (with a warning) instead of
   * rejected. On for the imported formats, whose files often carry unquoted colons that their own tools
   * tolerate; off for ours, where the error is more useful.
   */
  lenient: boolean;
}

/** A role's limits, result shape and metadata (role-result-fields.ts), in every format; snake_case as ADK and adk-fluent write them. */
const roleResultFields = [
  'maxTokens',
  'max_tokens',
  'outputSchema',
  'output_schema',
  'inputSchema',
  'input_schema',
  'metadata',
  'permissionMode',
];

const ourFields = ['name', 'description', 'tools', 'model', 'mode', 'max_turns', ...roleResultFields, ...fallbackModelFields];

/**
 * The three locations, in precedence order: when two files define the same role name, the one in the
 * earlier location wins (`.agent-team` > `.claude` > `.github`), and any of them wins over a built-in.
 * Our own format comes first because it is the one written for this product on purpose.
 */
export const roleFileLocations: readonly RoleFileLocation[] = [
  {
    format: 'agent-team',
    directory: '.agent-team/agents',
    suffix: '.md',
    fields: new Set([...ourFields, 'maxTurns', 'mcpServers', backgroundTasksField, ...a2aRoleFields]),
    lenient: false,
  },
  {
    format: 'claude',
    directory: '.claude/agents',
    suffix: '.md',
    fields: new Set([
      ...ourFields,
      'maxTurns',
      'disallowedTools',
      'permissionMode',
      'skills',
      'mcpServers',
      'hooks',
      'memory',
      'background',
      'isolation',
      'color',
      'effort',
      'disabled',
    ]),
    lenient: true,
  },
  {
    format: 'github',
    directory: '.github/agents',
    suffix: '.agent.md',
    fields: new Set([
      ...ourFields,
      'maxTurns',
      'target',
      'mcp-servers',
      'handoffs',
      'argument-hint',
      'agents',
      'user-invocable',
      'disable-model-invocation',
      'infer',
      'metadata',
    ]),
    lenient: true,
  },
];

/**
 * The user's own role files, in their home folder, for every workspace: below all of the workspace's
 * (a workspace's role of the same name wins) and above the built-ins. Copilot keeps its user agents in
 * `~/.copilot/agents`.
 */
export const userRoleFileLocations: readonly RoleFileLocation[] = roleFileLocations.map((location) =>
  location.format === 'github' ? { ...location, directory: '.copilot/agents' } : location,
);

/**
 * The user's locations, with VS Code's user prompts folder when there is one (relative to the home, where
 * VS Code keeps it on every platform): the custom agents Copilot users write there (`*.agent.md`, and the
 * older `*.chatmode.md`), read as GitHub's format, below the home's own folders.
 */
export function userRoleLocations(promptsDirectory?: string): RoleFileLocation[] {
  const github = roleFileLocations.find((location) => location.format === 'github');
  if (promptsDirectory === undefined || !github) return [...userRoleFileLocations];
  return [
    ...userRoleFileLocations,
    { ...github, directory: promptsDirectory },
    { ...github, directory: promptsDirectory, suffix: '.chatmode.md' },
  ];
}

/** Whether a directory entry is a role file of this location. READMEs are documentation, not roles. */
export function isRoleFile(fileName: string, location: RoleFileLocation): boolean {
  return fileName.endsWith(location.suffix) && fileName.length > location.suffix.length && !/^readme\.md$/i.test(fileName);
}

/** The role name a file gets when its front matter has none. */
export function roleNameFromFileName(fileName: string, location: RoleFileLocation): string {
  return fileName.slice(0, -location.suffix.length);
}
