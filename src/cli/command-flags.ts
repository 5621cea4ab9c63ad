/**
 * What `run`, `mcp` and `serve` share: the settings capabilities declare, parsed from the command line, and
 * the command flags the CLI's engine reads, drawn from them.
 */
import type { CommandFlags } from './argument-types.js';
import { capabilitySettings } from './capability-options.js';
import type { ParsedOptions } from './history-arguments.js';

export function commandFlags(parsed: Pick<ParsedOptions, 'values' | 'repeated' | 'flags'>): CommandFlags {
  const settings = capabilitySettings(parsed);
  return {
    settings,
    allowCommands: settings.commands.allowedCommands,
    noSandbox: settings.commands.sandbox === 'off',
    allowNetwork: settings.commands.commandNetwork === 'on',
    allowNetworkCommands: settings.commands.networkCommands,
    passEnvironment: settings.commands.passEnvironment,
    allowDomains: settings.web.allowedDomains,
    noHooks: !settings.hooks.hooks,
    trust: parsed.flags.has('--trust'),
    instructionFiles: settings.instructions.instructionFiles,
    ...(settings.conversation.approvePlan ? { approvePlan: true } : {}),
  };
}
