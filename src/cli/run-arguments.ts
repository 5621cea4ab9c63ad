/** `agent-team run [options] <task...>`: who does the task, with which limits, and what happens to the proposals. */
import type { RunArguments } from './argument-types.js';
import { checksRunOptions } from './checks-arguments.js';
import { commandFlags } from './command-flags.js';
import type { ParsedOptions } from './history-arguments.js';
import { checkedModelOptions, fallbackModelsOption } from './model-options.js';
import { dollarsOption, limitOption, wholeNumber } from './number-options.js';
import { UsageError } from './usage-error.js';
import { defaults } from '../engine/index.js';

export function runArguments(parsed: ParsedOptions): RunArguments {
  const { values, repeated, flags, words, workspace } = parsed;
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
  const delegationReach = values.get('--delegation-reach') ?? defaults.delegationReach;
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
    trace: values.get('--trace'),
    files: repeated.get('--file') ?? [],
    images: repeated.get('--image') ?? [],
    fallbackModels: fallbackModelsOption(repeated.get('--fallback-model')),
    ...checksRunOptions('run', values, flags),
    ...commandFlags(parsed),
    // Not given: no budget; given, at least 1 (the setting's 0 means none, which here is leaving it out).
    budgetTokens: values.has('--budget-tokens') ? wholeNumber(values, '--budget-tokens', 0, 1, Number.MAX_SAFE_INTEGER) : undefined,
    budgetUsd: dollarsOption(values.get('--budget-usd')),
    ...(values.has('--model-prices') ? { modelPrices: values.get('--model-prices') } : {}),
    ...(values.has('--context-window') ? { contextWindow: wholeNumber(values, '--context-window', 0, 1000, 100_000_000) } : {}),
  };
}
