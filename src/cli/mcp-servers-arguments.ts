/** `agent-team mcp-servers [--workspace <dir>] [--json]`: its arguments, read apart from the shared parser (arguments.ts). */
import path from 'node:path';
import { UsageError } from './usage-error.js';

export interface McpServersArguments {
  command: 'mcp-servers';
  workspace: string;
  /** `--json`: one JSON document instead of lines. Default false. */
  json: boolean;
}

export function parseMcpServersArguments(rest: readonly string[], currentDirectory: string): McpServersArguments {
  let workspace = currentDirectory;
  let json = false;
  for (let index = 0; index < rest.length; index++) {
    const argument = rest[index]!;
    if (argument === '--json') json = true;
    else if (argument === '--workspace' || argument.startsWith('--workspace=')) {
      const value = argument === '--workspace' ? rest[++index] : argument.slice('--workspace='.length);
      if (value === undefined || value === '') throw new UsageError('--workspace needs a value');
      workspace = path.resolve(currentDirectory, value);
    } else throw new UsageError(`"mcp-servers" takes only --workspace and --json, not ${argument}`);
  }
  return { command: 'mcp-servers', workspace, json };
}
