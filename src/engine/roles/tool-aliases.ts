import { canonicalToolName, type KnownTools } from './known-tools.js';
import type { ToolName } from './tool-names.js';
import { type RoleFileFormat } from './types.js';

/** A role file's tool list in the engine's names. */
export interface ToolListReading {
  /** The tools, in file order without repeats; undefined when the file asked for all tools (`*`). */
  tools: ToolName[] | undefined;
  /** Names left out, and other caveats, as messages for warnings. */
  warnings: string[];
}

/** Other products' tool names that mean one of ours (keys lower case). */
const aliasesByFormat: Record<RoleFileFormat, Record<string, readonly ToolName[]>> = {
  'agent-team': {},
  claude: { multiedit: ['Edit'], task: ['Agent'] },
  // Copilot's tool aliases and VS Code's built-in tool names.
  github: {
    read: ['Read'],
    readfile: ['Read'],
    edit: ['Edit', 'Write'],
    editfiles: ['Edit', 'Write'],
    createfile: ['Write'],
    search: ['Glob', 'Grep'],
    codebase: ['Glob', 'Grep', 'Read'],
    filesearch: ['Glob'],
    textsearch: ['Grep'],
    agent: ['Agent'],
    'custom-agent': ['Agent'],
    runsubagent: ['Agent'],
    execute: ['Bash'],
    runcommands: ['Bash'],
    runinterminal: ['Bash'],
    terminal: ['Bash'],
    shell: ['Bash'],
  },
};

/** Tools those products have and we don't, so the warning can say "not supported" rather than "unknown". */
const foreignToolsByFormat: Record<RoleFileFormat, ReadonlySet<string>> = {
  'agent-team': new Set(),
  claude: new Set([
    'bashoutput',
    'killshell',
    'killbash',
    'webfetch',
    'websearch',
    'notebookedit',
    'notebookread',
    'todowrite',
    'ls',
    'exitplanmode',
    'slashcommand',
    'askuserquestion',
    'lsp',
  ]),
  github: new Set([
    'powershell',
    'web',
    'fetch',
    'todo',
    'todos',
    'runtasks',
    'githubrepo',
    'problems',
    'changes',
    'usages',
    'testfailure',
    'runtests',
    'vscodeapi',
    'extensions',
    'new',
    'opensimplebrowser',
    'runnotebooks',
  ]),
};

const productNames: Record<RoleFileFormat, string> = { 'agent-team': 'Agent Team', claude: 'Claude Code', github: 'Copilot' };

/** Maps the names a role file lists to the engine's (those in `known`), collecting what is left out. */
export function readToolList(entries: readonly string[], format: RoleFileFormat, known: KnownTools): ToolListReading {
  const tools: ToolName[] = [];
  const unsupported: string[] = [];
  const unknown: string[] = [];
  const warnings: string[] = [];
  let all = false;
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry === '*') {
      all = true;
      continue;
    }
    // `Agent(researcher)` / `Bash(git:*)`: Claude Code's per-tool restrictions. We keep the tool, not the restriction.
    const restricted = /^([^(]+)\((.*)\)$/.exec(entry);
    const name = restricted ? restricted[1].trim() : entry;
    const mapped = mapOne(name, format, known);
    if (mapped === 'unsupported') unsupported.push(entry);
    else if (mapped === undefined) unknown.push(entry);
    else {
      for (const tool of mapped) if (!tools.includes(tool)) tools.push(tool);
      if (restricted) {
        // For Bash the user's own allowlist still decides what runs, so the dropped restriction widens nothing silently.
        const decides = mapped.includes('Bash')
          ? ' (which commands run is still up to the user: agentTeam.allowedCommands, --allow-command, or their approval)'
          : '';
        warnings.push(`tool restriction '${entry}' is not supported; the role gets ${mapped.join(' and ')} without it${decides}`);
      }
    }
  }
  if (unsupported.length > 0) {
    const list = unsupported.map((name) => `'${name}'`).join(', ');
    const one = unsupported.length === 1;
    warnings.push(
      `${list}: ${productNames[format]} ${one ? 'tool' : 'tools'} that Agent Team does not have; the role loads without ${one ? 'it' : 'them'}`,
    );
  }
  if (unknown.length > 0) {
    const list = unknown.map((name) => `'${name}'`).join(', ');
    warnings.push(
      `unknown tool${unknown.length === 1 ? '' : 's'} ${list}; the role loads without ${unknown.length === 1 ? 'it' : 'them'} (known tools: ${known.join(', ')})`,
    );
  }
  return { tools: all ? undefined : tools, warnings };
}

/** The tools a name stands for, `'unsupported'` for another product's tool we lack, undefined if unknown. */
function mapOne(name: string, format: RoleFileFormat, known: KnownTools): readonly ToolName[] | 'unsupported' | undefined {
  const lower = name.toLowerCase();
  const aliases = aliasesByFormat[format];
  // Aliases first: Copilot's `edit` is a tool set (edit and create files), not just our Edit.
  if (aliases[lower]) return aliases[lower];
  const own = canonicalToolName(name, known);
  if (own) return [own];
  if (foreignToolsByFormat[format].has(lower)) return 'unsupported';
  if (format === 'claude' && lower.startsWith('mcp__')) return 'unsupported';
  // Copilot writes tool sets and MCP servers as `set/tool` and `server/*`.
  if (format === 'github' && lower.includes('/')) {
    const [set, tool] = lower.split('/', 2);
    const own = canonicalToolName(tool, known);
    return aliases[tool] ?? (own ? [own] : undefined) ?? aliases[set] ?? 'unsupported';
  }
  return undefined;
}
