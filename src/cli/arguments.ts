/**
 * Parses the CLI's arguments (contract in docs/architecture.md). Hand-written rather than a library: the
 * grammar is tiny and the error messages are part of the product.
 */

export type ProviderName = 'anthropic' | 'openai';

/** How agents' commands run: `--allow-command`, `--no-sandbox`, `--allow-network`, `--allow-network-command`. */
export interface CommandFlags {
  /** Commands `Bash` may run (`--allow-command`, repeatable); any other is refused. */
  allowCommands: string[];
  /** `--no-sandbox`: commands run without the OS sandbox (as the user), when allowed. */
  noSandbox: boolean;
  /** `--allow-network`: every sandboxed command gets the network. */
  allowNetwork: boolean;
  /** `--allow-network-command` (repeatable): sandboxed commands matching these get the network. */
  allowNetworkCommands: string[];
  /** `--pass-env` (repeatable): variables commands get besides the allowlist's. */
  passEnvironment: string[];
}

export interface RunArguments extends CommandFlags {
  command: 'run';
  task: string;
  workspace: string;
  provider?: ProviderName;
  model?: string;
  baseUrl?: string;
  agent?: string;
  /** A workflow of `.agent-team/workflows` to run with the task as its input, instead of the coordinator. */
  workflow?: string;
  /** Plan the task with the recursive planner instead of the coordinator. */
  plan: boolean;
  /** A finished run (its root task id) to continue with the task as the follow-up message. */
  continueRun?: string;
  /** Sub-tasks per plan at most (default 5). */
  maxSubtasks: number;
  json: boolean;
  apply: boolean;
  /** Tasks doing work at once (default 4). */
  maxConcurrent: number;
  /** How deep delegation may nest (default 3). */
  maxDepth: number;
  /** Seconds a foreground subagent runs before it moves to the background (default 120). */
  autoBackgroundSeconds: number;
  /** Tokens (input + output) the whole run may spend; undefined: no limit. */
  budgetTokens?: number;
  /** Which roles an agent may hand work to (default `own-tools`). */
  delegationReach: 'own-tools' | 'any';
  /** Allow a turn to start more subagents than the confirmation limit (8): nobody can be asked here. */
  yes: boolean;
  /** Where to write the run's trace when it ends: Markdown for `.md`, else JSON. */
  trace?: string;
}

export interface AgentsArguments {
  command: 'agents';
  workspace: string;
}

export interface McpArguments extends CommandFlags {
  command: 'mcp';
  workspace: string;
  provider?: ProviderName;
  model?: string;
  baseUrl?: string;
}

export interface ServeArguments extends CommandFlags {
  command: 'serve';
  /** The protocol served; `a2a` is the only one, and `--a2a` is required so that others can come. */
  protocol: 'a2a';
  /** 0 picks a free port (the address is printed on stderr). */
  port: number;
  /** The address to listen on (`--host`, default 127.0.0.1); anything but loopback needs `authTokenEnv`. */
  host: string;
  /** The variable holding the bearer token(s) clients must send (`--auth-token-env`; comma-separated: one per client). */
  authTokenEnv?: string;
  workspace: string;
  provider?: ProviderName;
  model?: string;
  baseUrl?: string;
}

export interface WorkflowsArguments {
  command: 'workflows';
  workspace: string;
}

export type CliArguments = RunArguments | AgentsArguments | WorkflowsArguments | McpArguments | ServeArguments | { command: 'help' } | { command: 'version' };

export class UsageError extends Error {}

export const usageText = `Usage:
  agent-team run [options] <task...>      (the task '-': read it from stdin)
    --workspace <dir>   workspace root (default: current directory)
    --provider <name>   anthropic | openai
    --model <id>        model id
    --base-url <url>    API base URL (OpenAI-compatible servers, proxies)
    --agent <role>      run one role directly instead of the coordinator
    --workflow <name>   run a workflow of .agent-team/workflows with the task as its input
    --plan              plan the task (parallel or sequential sub-tasks, planned again up to --max-depth)
    --continue <taskId> continue a finished run (from .agent-team/runs) with the task as the next message
    --json              JSON Lines events on stdout
    --apply             apply proposed changes at the end, if the run completed
                        (default: show them, change nothing)
    --max-concurrent <n>            tasks doing work at once (default 4)
    --max-depth <n>                 how deep delegation may nest (default 3; 0: no delegation)
    --auto-background-seconds <s>   a foreground subagent moves to the background after this (default 120)
    --max-subtasks <n>              sub-tasks per plan at most, with --plan (default 5)
    --budget-tokens <n>             tokens the whole run may spend (input + output); spent: it stops
    --delegation-reach <reach>      own-tools (default: an agent starts only roles whose tools it has
                                    itself; the coordinator starts any) | any
    --yes                           let one turn start more than 8 subagents (else refused: it would
                                    need your confirmation)
    --trace <file>                  write the run's trace when it ends (tree, prompts, tool calls, models,
                                    tokens, diffs): Markdown for a .md file, else JSON
    --allow-command <pattern>       a command agents may run with Bash, in a scratch copy of the workspace
                                    (repeatable; * is a wildcard: 'npm test', 'npm run *', '*' for all);
                                    any other command is refused
    --allow-network                 commands get the network in the sandbox (default: none)
    --allow-network-command <pattern>
                                    commands matching this get the network in the sandbox (repeatable)
    --no-sandbox                    run commands without the OS sandbox, as you (where there is no
                                    sandbox, commands are refused unless this is given)
    --pass-env <NAME>               a variable commands get (repeatable; by default they get only PATH,
                                    the locale, the toolchains' locations and proxies without passwords)
  agent-team agents [--workspace <dir>]      list roles and where each is defined
  agent-team workflows [--workspace <dir>]   list workflows and their problems (exit 2 if any)
  agent-team mcp [--workspace <dir>] [--provider <name>] [--model <id>] [--base-url <url>]
                 [--allow-command <pattern>...] [--allow-network] [--no-sandbox] [--pass-env <NAME>...]
                                             the team as an MCP server over stdio (tools delegate,
                                             task_output, task_stop; edits returned as diffs)
  agent-team serve --a2a --port <n> [--host <address>] [--auth-token-env <NAME>] [--workspace <dir>]
                   [--provider <name>] [--model <id>] [--base-url <url>]
                   [--allow-command <pattern>...] [--allow-network] [--no-sandbox] [--pass-env <NAME>...]
                                             the team as an A2A agent on 127.0.0.1 (port 0: any free
                                             port; the address is printed on stderr; Ctrl-C stops it);
                                             --auth-token-env: clients must send the token that variable
                                             holds (several, comma-separated: one per client; each sees
                                             only its own tasks); required with a --host other than
                                             loopback

Keys come from ANTHROPIC_API_KEY / OPENAI_API_KEY.
Exit codes: 0 completed, 1 failed (or stopped by its budget), 2 usage or configuration error,
130 interrupted (a second Ctrl-C exits at once).
`;

const valueOptions = new Set([
  '--workspace',
  '--provider',
  '--model',
  '--base-url',
  '--agent',
  '--workflow',
  '--max-concurrent',
  '--max-depth',
  '--auto-background-seconds',
  '--budget-tokens',
  '--delegation-reach',
  '--max-subtasks',
  '--continue',
  '--trace',
  '--port',
  '--host',
  '--auth-token-env',
]);
const flagOptions = new Set(['--json', '--apply', '--plan', '--yes', '--a2a', '--no-sandbox', '--allow-network']);
/** Options that may be given more than once; each value is kept. */
const repeatableOptions = new Set(['--allow-command', '--allow-network-command', '--pass-env']);
/** The flags of commands, taken by run, mcp and serve. */
const commandFlagNames = new Set(['--no-sandbox', '--allow-network']);

export function parseArguments(argv: string[], currentDirectory: string): CliArguments {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (command !== 'run' && command !== 'agents' && command !== 'workflows' && command !== 'mcp' && command !== 'serve') {
    throw new UsageError(`unknown command "${command}": use "run", "agents", "workflows", "mcp" or "serve"`);
  }

  const values = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const flags = new Set<string>();
  const words: string[] = [];
  for (let index = 0; index < rest.length; index++) {
    const argument = rest[index];
    if (argument === '--') {
      words.push(...rest.slice(index + 1));
      break;
    }
    if (argument === '--help' || argument === '-h') return { command: 'help' };
    const [name, inlineValue] = splitOption(argument);
    if (repeatableOptions.has(name)) {
      const value = inlineValue ?? rest[++index];
      if (value === undefined || value.trim() === '') throw new UsageError(`${name} needs a value`);
      repeated.set(name, [...(repeated.get(name) ?? []), value.trim()]);
    } else if (valueOptions.has(name)) {
      const value = inlineValue ?? rest[++index];
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
      values.set(name, value);
    } else if (flagOptions.has(name)) {
      if (inlineValue !== undefined) throw new UsageError(`${name} takes no value`);
      flags.add(name);
    } else if (argument.startsWith('--')) {
      throw new UsageError(`unknown option ${name}`);
    } else {
      words.push(argument);
    }
  }

  const workspace = values.get('--workspace') ?? currentDirectory;
  if (command === 'agents' || command === 'workflows') {
    const extra = [...values.keys()].filter((name) => name !== '--workspace');
    if (extra.length > 0 || flags.size > 0 || words.length > 0 || repeated.size > 0) {
      throw new UsageError(`"${command}" takes only --workspace`);
    }
    return { command, workspace };
  }
  if (command === 'mcp') {
    const allowed = new Set(['--workspace', '--provider', '--model', '--base-url']);
    const extra = [...values.keys()].filter((name) => !allowed.has(name));
    if (extra.length > 0 || [...flags].some((flag) => !commandFlagNames.has(flag)) || words.length > 0) {
      throw new UsageError('"mcp" takes only --workspace, --provider, --model, --base-url, --allow-command, --allow-network, --allow-network-command and --no-sandbox');
    }
    return { command, workspace, ...checkedModelOptions(values), ...commandFlags(repeated, flags) };
  }
  if (command === 'serve') {
    const allowed = new Set(['--workspace', '--provider', '--model', '--base-url', '--port', '--host', '--auth-token-env']);
    const extra = [...values.keys()].filter((name) => !allowed.has(name));
    if (extra.length > 0 || [...flags].some((flag) => flag !== '--a2a' && !commandFlagNames.has(flag)) || words.length > 0) {
      throw new UsageError('"serve" takes only --a2a, --port, --host, --auth-token-env, --workspace, --provider, --model, --base-url, --allow-command, --allow-network, --allow-network-command, --pass-env and --no-sandbox');
    }
    if (!flags.has('--a2a')) throw new UsageError('"serve" needs the protocol to serve: agent-team serve --a2a --port <n>');
    if (!values.has('--port')) throw new UsageError('"serve --a2a" needs --port <n> (0: any free port)');
    const host = values.get('--host') ?? '127.0.0.1';
    const authTokenEnv = values.get('--auth-token-env');
    if (authTokenEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(authTokenEnv)) throw new UsageError(`--auth-token-env names an environment variable, not "${authTokenEnv}"`);
    if (!isLoopback(host) && authTokenEnv === undefined) throw new UsageError(`--host ${host} would let other machines reach the team: it needs --auth-token-env <NAME>, the variable holding the token clients must send`);
    return { command, protocol: 'a2a', port: wholeNumber(values, '--port', 0, 0, 65_535), host, ...(authTokenEnv ? { authTokenEnv } : {}), workspace, ...checkedModelOptions(values), ...commandFlags(repeated, flags) };
  }
  if (flags.has('--a2a') || values.has('--port')) throw new UsageError(`--a2a and --port belong to "serve", not "${command}"`);
  const modes = ['--agent', '--workflow', '--continue'].filter((name) => values.has(name)).concat(flags.has('--plan') ? ['--plan'] : []);
  if (modes.length > 1) throw new UsageError(`${modes.join(' and ')} cannot be used together: each says who does the task`);

  const task = words.join(' ').trim();
  if (task === '') throw new UsageError('"run" needs a task, e.g. agent-team run "review src/parser.ts"');
  const { provider, model, baseUrl } = checkedModelOptions(values);
  const delegationReach = values.get('--delegation-reach') ?? 'own-tools';
  if (delegationReach !== 'own-tools' && delegationReach !== 'any') {
    throw new UsageError(`--delegation-reach must be own-tools or any, not "${delegationReach}"`);
  }
  return {
    command: 'run',
    task,
    workspace,
    provider,
    model,
    baseUrl,
    agent: values.get('--agent'),
    workflow: values.get('--workflow'),
    plan: flags.has('--plan'),
    continueRun: values.get('--continue'),
    maxSubtasks: wholeNumber(values, '--max-subtasks', 5, 1, 20),
    json: flags.has('--json'),
    apply: flags.has('--apply'),
    maxConcurrent: wholeNumber(values, '--max-concurrent', 4, 1, 32),
    maxDepth: wholeNumber(values, '--max-depth', 3, 0, 10),
    autoBackgroundSeconds: seconds(values.get('--auto-background-seconds') ?? '120'),
    delegationReach,
    yes: flags.has('--yes'),
    trace: values.get('--trace'),
    ...commandFlags(repeated, flags),
    budgetTokens: values.has('--budget-tokens') ? wholeNumber(values, '--budget-tokens', 0, 1, Number.MAX_SAFE_INTEGER) : undefined,
  };
}

/**
 * The loopback addresses the server answers on without a token: exactly the names its Host check accepts
 * (a2a-http-server.ts), so a browser page cannot reach it through a rebound name.
 */
function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

function commandFlags(repeated: Map<string, string[]>, flags: Set<string>): CommandFlags {
  return { allowCommands: repeated.get('--allow-command') ?? [], noSandbox: flags.has('--no-sandbox'), allowNetwork: flags.has('--allow-network'), allowNetworkCommands: repeated.get('--allow-network-command') ?? [], passEnvironment: repeated.get('--pass-env') ?? [] };
}

function wholeNumber(values: Map<string, string>, name: string, fallback: number, minimum: number, maximum: number): number {
  const text = values.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < minimum || value > maximum) {
    throw new UsageError(`${name} must be a whole number from ${minimum} to ${maximum}, not "${text}"`);
  }
  return value;
}

function seconds(text: string): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value)) {
    throw new UsageError(`--auto-background-seconds must be zero or more seconds, not "${text}"`);
  }
  return value;
}

/** `--provider`, `--model` and `--base-url`, checked. */
function checkedModelOptions(values: Map<string, string>): { provider?: ProviderName; model?: string; baseUrl?: string } {
  const provider = values.get('--provider');
  if (provider !== undefined && provider !== 'anthropic' && provider !== 'openai') {
    const where = provider === 'vscode-lm' ? ' (vscode-lm, VS Code\'s own models, works only inside VS Code: use the extension\'s @team or its commands)' : '';
    throw new UsageError(`--provider must be anthropic or openai, not "${provider}"${where}`);
  }
  const baseUrl = values.get('--base-url');
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, not "${baseUrl}"`);
  return { provider, model: values.get('--model'), baseUrl };
}

function splitOption(argument: string): [string, string | undefined] {
  const equals = argument.indexOf('=');
  if (!argument.startsWith('--') || equals < 0) return [argument, undefined];
  return [argument.slice(0, equals), argument.slice(equals + 1)];
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
