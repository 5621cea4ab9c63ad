/**
 * Parses the CLI's arguments (contract in docs/architecture.md). Hand-written rather than a library: the
 * grammar is tiny and the error messages are part of the product.
 */
import type { CliArguments, CommandFlags } from './argument-types.js';
import { parseMcpServersArguments } from './mcp-servers-arguments.js';
import { historyCommandArguments } from './history-arguments.js';
import { checksCommandArguments, checksRunOptions } from './checks-arguments.js';
import { undoArguments } from './undo-arguments.js';
import { checkedModelOptions, fallbackModelsOption } from './model-options.js';
import { dollarsOption, instructionFilesOption, limitOption, wholeNumber } from './number-options.js';
import { UsageError } from './usage-error.js';
import { readableRule } from '../engine/web/domain-rules.js';

export type {
  AgentsArguments,
  ApplyArguments,
  ChecksArguments,
  ModelsArguments,
  CliArguments,
  CommandFlags,
  McpArguments,
  ProviderName,
  RunArguments,
  RunsArguments,
  ServeArguments,
  TrustArguments,
  WorkflowsArguments,
} from './argument-types.js';
export { UsageError } from './usage-error.js';
export { usageText } from './usage-text.js';
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
  '--budget-usd',
  '--model-prices',
  '--context-window',
  '--delegation-reach',
  '--max-subtasks',
  '--continue',
  '--resume',
  '--keep-runs',
  '--trace',
  '--port',
  '--host',
  '--auth-token-env',
  '--instruction-files',
  '--branch',
  '--take',
  '--fix-until-green',
]);
const flagOptions = new Set([
  '--json',
  '--apply',
  '--plan',
  '--yes',
  '--a2a',
  '--no-auth',
  '--no-sandbox',
  '--allow-network',
  '--no-hooks',
  '--force',
  '--trust',
  '--show',
  '--conflict-markers',
  '--checks',
  '--no-checks',
  '--approve-plan',
]);
/** Options that may be given more than once; each value is kept. */
const repeatableOptions = new Set([
  '--allow-command',
  '--allow-network-command',
  '--pass-env',
  '--allow-domain',
  '--file',
  '--image',
  '--fallback-model',
  '--hunk',
  '--reject-hunk',
]);
/** Every option some command takes, for the help's own test: each command's help names all it accepts. */
export const knownOptions: readonly string[] = [...valueOptions, ...flagOptions, ...repeatableOptions];
/** The flags of commands, taken by run, mcp and serve. */
const commandFlagNames = new Set(['--no-sandbox', '--allow-network', '--no-hooks', '--trust']);

export function parseArguments(argv: string[], currentDirectory: string): CliArguments {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (command === 'mcp-servers')
    return rest.some((argument) => argument === '--help' || argument === '-h')
      ? { command: 'help', topic: command }
      : parseMcpServersArguments(rest, currentDirectory);
  if (
    command !== 'run' &&
    command !== 'runs' &&
    command !== 'apply' &&
    command !== 'undo' &&
    command !== 'agents' &&
    command !== 'workflows' &&
    command !== 'mcp' &&
    command !== 'serve' &&
    command !== 'trust' &&
    command !== 'checks' &&
    command !== 'models'
  ) {
    throw new UsageError(
      `unknown command "${command}": use "run", "runs", "apply", "undo", "agents", "workflows", "checks", "models", "mcp", "mcp-servers", "serve" or "trust"`,
    );
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
    if (argument === '--help' || argument === '-h') return { command: 'help', topic: command };
    const [name, inlineValue] = splitOption(argument);
    if (repeatableOptions.has(name)) {
      const value = inlineValue ?? rest[++index];
      if (value === undefined || value.trim() === '') throw new UsageError(`${name} needs a value`);
      repeated.set(name, [...(repeated.get(name) ?? []), value.trim()]);
    } else if (valueOptions.has(name)) {
      const value = inlineValue ?? rest[++index];
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
      // Never one of two folders silently (as VS Code asks in a multi-root workspace): a command works in one.
      if (name === '--workspace' && values.has(name))
        throw new UsageError(
          `--workspace is given twice (${values.get(name)} and ${value}): agents work in one folder; run once per folder, or give the folder that holds both`,
        );
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
  if (command === 'runs' || command === 'apply') return historyCommandArguments(command, { values, repeated, flags, words, workspace });
  if (command === 'checks') return checksCommandArguments({ values, repeated, flags, words, workspace });
  const checks = checksRunOptions(command, values, flags);
  if (command === 'undo') return undoArguments({ values, repeated, flags, words, workspace });
  for (const name of ['--branch', '--take', '--show', '--conflict-markers', '--hunk', '--reject-hunk'])
    if (values.has(name) || flags.has(name) || repeated.has(name)) throw new UsageError(`${name} belongs to "apply", not "${command}"`);
  if (command !== 'run' && repeated.has('--file')) throw new UsageError(`--file belongs to "run", not "${command}"`);
  if (command !== 'run' && repeated.has('--image')) throw new UsageError(`--image belongs to "run", not "${command}"`);
  if (command !== 'run' && repeated.has('--fallback-model')) throw new UsageError(`--fallback-model belongs to "run", not "${command}"`);
  if (command === 'models') {
    if ([...values.keys()].some((name) => name !== '--model-prices') || flags.size > 0 || words.length > 0 || repeated.size > 0)
      throw new UsageError('"models" takes only --model-prices');
    return { command, ...(values.has('--model-prices') ? { modelPrices: values.get('--model-prices') } : {}) };
  }
  if (command === 'agents' || command === 'workflows' || command === 'trust') {
    const extra = [...values.keys()].filter((name) => name !== '--workspace');
    if (extra.length > 0 || flags.size > 0 || words.length > 0 || repeated.size > 0) {
      throw new UsageError(`"${command}" takes only --workspace`);
    }
    return { command, workspace };
  }
  if (command === 'mcp') {
    const allowed = new Set(['--workspace', '--provider', '--model', '--base-url', '--instruction-files']);
    const extra = [...values.keys()].filter((name) => !allowed.has(name));
    if (extra.length > 0 || [...flags].some((flag) => flag !== '--approve-plan' && !commandFlagNames.has(flag)) || words.length > 0) {
      throw new UsageError(
        '"mcp" takes only --workspace, --provider, --model, --base-url, --approve-plan, --allow-command, --allow-network, --allow-network-command, --pass-env, --allow-domain, --instruction-files, --no-sandbox, --no-hooks and --trust',
      );
    }
    return {
      command,
      workspace,
      ...(flags.has('--approve-plan') ? { approvePlan: true } : {}),
      ...checkedModelOptions(values),
      ...commandFlags(repeated, flags, values),
    };
  }
  if (command === 'serve') {
    const allowed = new Set([
      '--workspace',
      '--provider',
      '--model',
      '--base-url',
      '--port',
      '--host',
      '--auth-token-env',
      '--instruction-files',
    ]);
    const extra = [...values.keys()].filter((name) => !allowed.has(name));
    if (
      extra.length > 0 ||
      [...flags].some((flag) => flag !== '--a2a' && flag !== '--no-auth' && flag !== '--approve-plan' && !commandFlagNames.has(flag)) ||
      words.length > 0
    ) {
      throw new UsageError(
        '"serve" takes only --a2a, --port, --host, --auth-token-env, --no-auth, --approve-plan, --workspace, --provider, --model, --base-url, --allow-command, --allow-network, --allow-network-command, --pass-env, --allow-domain, --instruction-files, --no-sandbox, --no-hooks and --trust',
      );
    }
    if (!flags.has('--a2a')) throw new UsageError('"serve" needs the protocol to serve: agent-team serve --a2a --port <n>');
    if (!values.has('--port')) throw new UsageError('"serve --a2a" needs --port <n> (0: any free port)');
    const port = wholeNumber(values, '--port', 0, 0, 65_535);
    const host = values.get('--host') ?? '127.0.0.1';
    const authTokenEnv = values.get('--auth-token-env');
    if (authTokenEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(authTokenEnv))
      throw new UsageError(`--auth-token-env names an environment variable, not "${authTokenEnv}"`);
    if (!isLoopback(host) && authTokenEnv === undefined)
      throw new UsageError(
        `--host ${host} would let other machines reach the team: it needs --auth-token-env <NAME>, the variable holding the token clients must send`,
      );
    const noAuth = flags.has('--no-auth');
    if (noAuth && authTokenEnv !== undefined) throw new UsageError('--no-auth and --auth-token-env cannot be used together: give one');
    // Every program on this machine (another user's, a page's helper) reaches loopback: no token is a choice said out loud.
    if (!noAuth && authTokenEnv === undefined)
      throw new UsageError(
        '"serve --a2a" needs --auth-token-env <NAME> (the variable holding the token clients must send) or --no-auth (any program on this machine may use the team)',
      );
    return {
      command,
      protocol: 'a2a',
      port,
      host,
      ...(authTokenEnv ? { authTokenEnv } : {}),
      noAuth,
      ...(flags.has('--approve-plan') ? { approvePlan: true } : {}),
      workspace,
      ...checkedModelOptions(values),
      ...commandFlags(repeated, flags, values),
    };
  }
  if (flags.has('--a2a') || values.has('--port') || flags.has('--no-auth') || values.has('--host') || values.has('--auth-token-env'))
    throw new UsageError(`--a2a, --port, --host, --auth-token-env and --no-auth belong to "serve", not "${command}"`);
  const modes = ['--agent', '--workflow', '--continue', '--resume']
    .filter((name) => values.has(name))
    .concat(flags.has('--plan') ? ['--plan'] : []);
  if (modes.length > 1) throw new UsageError(`${modes.join(' and ')} cannot be used together: each says who does the task`);
  if (flags.has('--approve-plan') && values.has('--workflow'))
    throw new UsageError(
      "--approve-plan goes with the coordinator or --plan: a workflow's steps are its plan, written in its file, and start as it runs",
    );
  if (repeated.has('--image') && (values.has('--workflow') || flags.has('--plan')))
    throw new UsageError('--image goes to the agent you talk to (the coordinator, an --agent, or --continue), not to a workflow or a plan');

  const task = words.join(' ').trim();
  const resumeRun = values.get('--resume');
  if (resumeRun !== undefined && task !== '')
    throw new UsageError(
      '--resume goes on with the run as it was: give it no task (to say something new, use --continue once it has ended)',
    );
  if (resumeRun !== undefined && (repeated.has('--image') || repeated.has('--file')))
    throw new UsageError('--resume goes on with the run as it was: --file and --image belong to a new task');
  if (task === '' && resumeRun === undefined) throw new UsageError('"run" needs a task, e.g. agent-team run "review src/parser.ts"');
  if (flags.has('--force') && resumeRun === undefined && !values.has('--continue'))
    throw new UsageError('--force goes with --resume or --continue (going on with a foreign run), or with "apply"');
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
    ...(resumeRun !== undefined ? { resumeRun } : {}),
    ...(flags.has('--force') ? { force: true } : {}),
    ...(values.has('--keep-runs') ? { keepRuns: wholeNumber(values, '--keep-runs', 0, 1, 1_000_000) } : {}),
    maxSubtasks: limitOption(values, '--max-subtasks', 'maxSubtasks'),
    json: flags.has('--json'),
    apply: flags.has('--apply'),
    maxConcurrent: limitOption(values, '--max-concurrent', 'maxConcurrentTasks'),
    maxDepth: limitOption(values, '--max-depth', 'maxDepth'),
    autoBackgroundSeconds: limitOption(values, '--auto-background-seconds', 'autoBackgroundSeconds'),
    delegationReach,
    yes: flags.has('--yes'),
    ...(flags.has('--approve-plan') ? { approvePlan: true } : {}),
    trace: values.get('--trace'),
    files: repeated.get('--file') ?? [],
    images: repeated.get('--image') ?? [],
    fallbackModels: fallbackModelsOption(repeated.get('--fallback-model')),
    ...checks,
    ...commandFlags(repeated, flags, values),
    // Not given: no budget; given, at least 1 (the setting's 0 means none, which here is leaving it out).
    budgetTokens: values.has('--budget-tokens') ? wholeNumber(values, '--budget-tokens', 0, 1, Number.MAX_SAFE_INTEGER) : undefined,
    budgetUsd: dollarsOption(values.get('--budget-usd')),
    ...(values.has('--model-prices') ? { modelPrices: values.get('--model-prices') } : {}),
    ...(values.has('--context-window') ? { contextWindow: wholeNumber(values, '--context-window', 0, 1000, 100_000_000) } : {}),
  };
}

/**
 * The loopback addresses the server answers on without a token: exactly the names its Host check accepts
 * (a2a-http-server.ts), so a browser page cannot reach it through a rebound name.
 */
function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

function commandFlags(repeated: Map<string, string[]>, flags: Set<string>, values: Map<string, string>): CommandFlags {
  const unreadable = (repeated.get('--allow-domain') ?? []).find((pattern) => !readableRule(pattern));
  if (unreadable !== undefined)
    throw new UsageError(
      `--allow-domain ${unreadable}: not a site; give a host (docs.example.com), a host and port (docs.example.com:8080), *.example.com or *`,
    );
  return {
    allowCommands: repeated.get('--allow-command') ?? [],
    noSandbox: flags.has('--no-sandbox'),
    noHooks: flags.has('--no-hooks'),
    trust: flags.has('--trust'),
    allowNetwork: flags.has('--allow-network'),
    allowNetworkCommands: repeated.get('--allow-network-command') ?? [],
    passEnvironment: repeated.get('--pass-env') ?? [],
    allowDomains: repeated.get('--allow-domain') ?? [],
    instructionFiles: instructionFilesOption(values.get('--instruction-files')),
  };
}

function splitOption(argument: string): [string, string | undefined] {
  const equals = argument.indexOf('=');
  if (!argument.startsWith('--') || equals < 0) return [argument, undefined];
  return [argument.slice(0, equals), argument.slice(equals + 1)];
}
