/**
 * `agent-team trust [--workspace <dir>]`: shows exactly what the folder's own configuration would run and
 * records the user's yes, for this folder and exactly this configuration (a changed hook or server command
 * asks again). On a terminal it asks y/N first; without one, typing the command is the yes (a script that
 * runs it means it). A folder that defines nothing to run needs no trust, and nothing is recorded.
 */
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { ConfigurationError, formatRoleDiagnostic, readFolderConfiguration, readTeamRoles } from '../engine/index.js';
import type { TrustArguments } from './argument-types.js';
import { describeFolderItems, shown } from './folder-items-text.js';
import type { TrustQuestion } from './folder-trust.js';
import { recordTrust, trustStorePath } from './trust-store.js';
import { exitCodes } from './exit-codes.js';

export interface TrustContext {
  stdout: { write(text: string): void };
  stderr: { write(text: string): void };
  environment: Readonly<Record<string, string | undefined>>;
  /** Asks y/N on a terminal. Default: nobody is asked (the command is the yes). */
  ask?: TrustQuestion;
  /** Default: the system's clock. */
  now?: () => Date;
}

export async function trustCommand(args: TrustArguments, context: TrustContext): Promise<number> {
  const info = await stat(args.workspace).catch(() => undefined);
  if (!info?.isDirectory()) throw new ConfigurationError(`--workspace ${args.workspace}: no such folder`);
  const folder = await realpath(args.workspace);
  const { roles, diagnostics } = await readTeamRoles({ root: folder, home: context.environment.HOME || homedir() });
  for (const diagnostic of diagnostics) context.stderr.write(`${shown(formatRoleDiagnostic(diagnostic))}\n`);
  const configuration = await readFolderConfiguration({ root: folder, roles });
  for (const problem of configuration.problems) context.stderr.write(`agent-team: ${shown(problem)}\n`);
  if (configuration.items.length === 0) {
    context.stdout.write(
      `${shown(folder)} defines nothing that runs (no hook, no role file that starts a server or reaches a remote agent): there is nothing to trust.\n`,
    );
    return exitCodes.completed;
  }
  context.stdout.write(`${shown(folder)} would run:\n${describeFolderItems(configuration.items)}`);
  if (context.ask && !(await context.ask(describeFolderItems(configuration.items)))) {
    context.stdout.write('Not trusted: nothing was recorded.\n');
    return exitCodes.failed;
  }
  const store = trustStorePath(context.environment);
  await recordTrust(store, folder, configuration.hash, (context.now ?? (() => new Date()))(), (message) =>
    context.stderr.write(`agent-team: ${shown(message)}\n`),
  );
  context.stdout.write(
    `Trusted (${configuration.hash}), recorded in ${shown(store)}: agent-team runs these here until one of them changes.\n`,
  );
  return exitCodes.completed;
}
