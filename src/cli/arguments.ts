/**
 * Parses the CLI's arguments (contract in docs/architecture.md). Hand-written rather than a library: the
 * grammar is tiny and the error messages are part of the product. The options capabilities declare come
 * from their descriptors (capability-options.ts); each command's own rules are in its file.
 */
import type { CliArguments } from './argument-types.js';
import { parseMcpServersArguments } from './mcp-servers-arguments.js';
import { historyCommandArguments, type ParsedOptions } from './history-arguments.js';
import { checksCommandArguments, checksRunOptions } from './checks-arguments.js';
import { undoArguments } from './undo-arguments.js';
import { checkedModelOptions } from './model-options.js';
import { capabilityFlags, declaredOptions } from './capability-options.js';
import { commandFlags } from './command-flags.js';
import { runArguments } from './run-arguments.js';
import { serveArguments, serveFlags, serveValueOptions } from './serve-arguments.js';
import { UsageError } from './usage-error.js';

export type * from './argument-types.js';
export { UsageError } from './usage-error.js';
export { usageText } from './usage-text.js';

const commands = ['run', 'runs', 'apply', 'undo', 'agents', 'workflows', 'checks', 'models', 'mcp', 'mcp-servers', 'serve', 'trust'];
/** The options of the model, taken by run, mcp and serve. */
const modelOptions = ['--workspace', '--provider', '--model', '--base-url'];
const valueOptions = new Set([
  ...modelOptions,
  ...['--agent', '--workflow', '--max-concurrent', '--max-depth', '--auto-background-seconds', '--budget-tokens', '--budget-usd'],
  ...['--model-prices', '--context-window', '--delegation-reach', '--max-subtasks', '--continue', '--resume', '--keep-runs'],
  ...['--trace', ...serveValueOptions, '--branch', '--take', '--fix-until-green'],
  ...capabilityFlags('value'),
]);
const flagOptions = new Set([
  ...[
    '--json',
    '--apply',
    '--plan',
    '--yes',
    ...serveFlags,
    '--force',
    '--trust',
    '--show',
    '--conflict-markers',
    '--checks',
    '--no-checks',
  ],
  ...capabilityFlags('switch'),
]);
/** Options that may be given more than once; each value is kept. */
const repeatableOptions = new Set(['--file', '--image', '--fallback-model', '--hunk', '--reject-hunk', ...capabilityFlags('repeatable')]);
/** Every option some command takes, for the help's own test: each command's help names all it accepts. */
export const knownOptions: readonly string[] = [...valueOptions, ...flagOptions, ...repeatableOptions];
/** What mcp and serve take besides their own: the model's options, `--trust` and every capability's. */
const sharedOptions = [...modelOptions, '--trust', ...declaredOptions.map(({ option }) => option.flag)];

export function parseArguments(argv: string[], currentDirectory: string): CliArguments {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (!commands.includes(command))
    throw new UsageError(
      `unknown command "${command}": use ${commands.map((name) => `"${name}"`).join(', ')}`.replace(/, (?=[^,]*$)/, ' or '),
    );
  const isHelp = (argument: string) => argument === '--help' || argument === '-h';
  // After `--` a --help is a word of the task; mcp-servers takes no task.
  const optionPart = command === 'mcp-servers' || !rest.includes('--') ? rest : rest.slice(0, rest.indexOf('--'));
  if (optionPart.some(isHelp)) return { command: 'help', topic: command };
  if (command === 'mcp-servers') return parseMcpServersArguments(rest, currentDirectory);

  const parsed = readOptions(rest, currentDirectory);
  const { values, repeated, flags, words } = parsed;
  if (command === 'runs' || command === 'apply') return historyCommandArguments(command, parsed);
  if (command === 'checks') return checksCommandArguments(parsed);
  checksRunOptions(command, values, flags);
  if (command === 'undo') return undoArguments(parsed);
  for (const name of ['--branch', '--take', '--show', '--conflict-markers', '--hunk', '--reject-hunk'])
    if (values.has(name) || flags.has(name) || repeated.has(name)) throw new UsageError(`${name} belongs to "apply", not "${command}"`);
  for (const name of ['--file', '--image', '--fallback-model'])
    if (command !== 'run' && repeated.has(name)) throw new UsageError(`${name} belongs to "run", not "${command}"`);
  const given = [...values.keys(), ...flags, ...repeated.keys()];
  if (command === 'models') {
    if (given.some((name) => name !== '--model-prices') || words.length > 0) throw new UsageError('"models" takes only --model-prices');
    return { command, ...(values.has('--model-prices') ? { modelPrices: values.get('--model-prices') } : {}) };
  }
  if (command === 'agents' || command === 'workflows' || command === 'trust') {
    if (given.some((name) => name !== '--workspace') || words.length > 0) throw new UsageError(`"${command}" takes only --workspace`);
    return { command, workspace: parsed.workspace };
  }
  if (command === 'mcp') {
    if (given.some((name) => !sharedOptions.includes(name)) || words.length > 0)
      throw new UsageError(`"mcp" takes only ${sharedOptions.join(', ')}`);
    return { command, workspace: parsed.workspace, ...checkedModelOptions(values), ...commandFlags(parsed) };
  }
  if (command === 'serve') {
    const allowed = [...serveFlags, ...serveValueOptions, ...sharedOptions];
    if (given.some((name) => !allowed.includes(name)) || words.length > 0) throw new UsageError(`"serve" takes only ${allowed.join(', ')}`);
    return serveArguments(parsed);
  }
  if ([...serveFlags, ...serveValueOptions].some((name) => values.has(name) || flags.has(name)))
    throw new UsageError(`--a2a, --port, --host, --auth-token-env and --no-auth belong to "serve", not "${command}"`);
  return runArguments(parsed);
}

/** The options and words after the command; `--` ends the options (the rest are the task's words). */
function readOptions(rest: readonly string[], currentDirectory: string): ParsedOptions {
  const values = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const flags = new Set<string>();
  const words: string[] = [];
  for (let index = 0; index < rest.length; index++) {
    const argument = rest[index]!;
    if (argument === '--') {
      words.push(...rest.slice(index + 1));
      break;
    }
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
  return { values, repeated, flags, words, workspace: values.get('--workspace') ?? currentDirectory };
}

function splitOption(argument: string): [string, string | undefined] {
  const equals = argument.indexOf('=');
  if (!argument.startsWith('--') || equals < 0) return [argument, undefined];
  return [argument.slice(0, equals), argument.slice(equals + 1)];
}
