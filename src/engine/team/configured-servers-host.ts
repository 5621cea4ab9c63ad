/**
 * The configured MCP servers' host (mcp/configured-servers-capability.ts), built from what an engine host
 * supplies: where the user's file is, who types an input, who allows a workspace server's first start (the
 * host's command approval: the same question, naming the server's command line), and the folder's trust.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import type { CommandHost } from '../commands/command-host.js';
import { describeIsolation } from '../commands/sandbox/sandbox-state.js';
import type { ConfiguredServersHost } from '../mcp/configured-servers-capability.js';
import { readMcpCatalog } from '../mcp/mcp-catalog.js';
import { userMcpConfigPath } from '../mcp/mcp-config-files.js';
import type { McpInputAnswers } from '../mcp/mcp-input-answers.js';
import type { EngineHost } from './engine-host.js';
import { itemKey } from './folder-configuration.js';
import { configuredServerItem } from './folder-mcp-items.js';

export function configuredServersHost(
  host: EngineHost,
  commands: CommandHost,
  howToTrust: string,
  answers: McpInputAnswers,
): ConfiguredServersHost {
  const home = host.userHome ?? homedir();
  const userFiles = (host.mcpUserFiles ?? [userMcpConfigPath(home, host.environment)]).map((file) => ({
    path: file,
    shown: shownPath(file, home),
  }));
  const approval = commands.approval;
  return {
    catalog: () => readMcpCatalog({ root: host.workspace.root, userFiles }),
    workspaceTrusted: () => host.trusted(),
    howToTrust,
    itemOf: (entry) => {
      const item = configuredServerItem(entry);
      return { key: itemKey(item), runs: item.runs };
    },
    ...(host.trustsFolderItem ? { trustsItem: (entry) => host.trustsFolderItem!(configuredServerItem(entry)) } : {}),
    ...(approval
      ? {
          approveFirstUse: async (request, signal) => {
            // Never "always": that would allow the command line as a command pattern, for every command.
            const isolation = { ...describeIsolation(await commands.sandbox(), false), offerAlways: false };
            const description = `Start the MCP server '${request.server}' that ${request.file} configures (its first use here)`;
            return (
              (await approval.request(
                { taskId: request.taskId, role: request.role, command: request.runs, description, isolation },
                signal,
              )) === 'allow'
            );
          },
        }
      : {}),
    ...(host.askMcpInput ? { askInput: host.askMcpInput } : {}),
    howToAnswer: host.mcpInputHowTo ?? "give the value in the server's entry instead",
    answers,
  };
}

/** A file in the home as `~/…`, as the user would write it. */
export function shownPath(file: string, home: string): string {
  return file.startsWith(`${home}${path.sep}`) ? `~/${path.relative(home, file)}` : file;
}
