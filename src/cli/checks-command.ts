/**
 * `agent-team checks [--workspace <dir>] [--json]`: the workspace's own checks, each with its command and
 * where it was found, and what was looked at and not used (with why). Nothing runs: this is the list the
 * user approves (`--allow-command`) and trusts (`agent-team trust`) before `run --checks` runs them.
 */
import { discoverChecks } from '../engine/index.js';
import type { CommandOutput } from './agents-command.js';
import type { ChecksArguments } from './argument-types.js';
import { exitCodes } from './exit-codes.js';
import { terminalSafe, terminalSafeJson } from './terminal-text.js';

export async function checksCommand(args: ChecksArguments, output: CommandOutput): Promise<number> {
  const discovery = await discoverChecks(args.workspace);
  if (args.json) {
    output.stdout.write(`${terminalSafeJson(discovery)}\n`);
    return exitCodes.completed;
  }
  const origin = discovery.fromChecksFile ? 'from .agent-team/checks.yaml (discovery is off while it exists)' : 'found in the workspace';
  if (discovery.checks.length === 0)
    output.stdout.write(`No checks ${origin}. Define them in .agent-team/checks.yaml: checks: [{name, command, timeoutSeconds?, when?}]\n`);
  else output.stdout.write(`Checks ${origin}:\n`);
  for (const check of discovery.checks) {
    const extras = [
      `from ${check.source}`,
      `timeout ${check.timeoutSeconds ?? 300} s`,
      ...(check.when ? [`when ${check.when.join(', ')} change`] : []),
    ];
    output.stdout.write(`${terminalSafe(`  ${check.name}: ${check.command}  (${extras.join(' · ')})`)}\n`);
  }
  for (const note of discovery.skipped) output.stdout.write(`${terminalSafe(`  not used: ${note.source}: ${note.reason}`)}\n`);
  if (discovery.checks.length > 0) {
    output.stdout.write(
      'They run on proposals with `agent-team run --checks`, in the sandbox, once the folder is trusted and each command allowed (--allow-command).\n',
    );
  }
  return exitCodes.completed;
}
