/**
 * What VS Code offers agents besides the engine's own tools, through the engine's ports (it never imports
 * `vscode`): the tools other extensions registered (`vscode.lm.tools`, called with `vscode.lm.invokeTool`)
 * for roles naming `vscode__<tool>`; an input box for a configured MCP server's `${input:id}` (a password
 * typed hidden, never logged); and where the user's own VS Code MCP servers are (`mcp.json` of the user's
 * profile, beside the extension's global storage).
 */
import path from 'node:path';
import * as vscode from 'vscode';
import type { HostToolInfo, HostToolPort, McpInputAsker } from '../../engine/index.js';
import { delegateToolName } from '../contribution-ids.js';

/** Our own tools are never offered back to our agents: delegating to the team from inside it would loop. */
const ownTools = new Set([delegateToolName]);

export function vscodeToolPort(): HostToolPort {
  return {
    list: () =>
      (vscode.lm?.tools ?? [])
        .filter((tool) => !ownTools.has(tool.name))
        .map((tool): HostToolInfo => ({
          name: tool.name,
          description: tool.description,
          ...(isObject(tool.inputSchema) ? { inputSchema: tool.inputSchema } : {}),
        })),
    async invoke(name, input, signal) {
      if (ownTools.has(name)) throw new Error(`${name} is Agent Team's own tool`);
      const cancellation = new vscode.CancellationTokenSource();
      const cancel = () => cancellation.cancel();
      signal.addEventListener('abort', cancel, { once: true });
      try {
        // No chat request stands behind an agent's call: the tool shows its own confirmation, if it has one.
        const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cancellation.token);
        return result.content
          .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '[non-text content not shown]'))
          .join('\n');
      } finally {
        signal.removeEventListener('abort', cancel);
        cancellation.dispose();
      }
    },
  };
}

/** Asks in an input box that stays open when focus moves; Escape (or a stopped task) gives no value. */
export function vscodeInputAsker(): McpInputAsker {
  return async (request, signal) => {
    const cancellation = new vscode.CancellationTokenSource();
    const cancel = () => cancellation.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const value = await vscode.window.showInputBox(
        {
          title: vscode.l10n.t("MCP server '{0}' ({1})", request.server, request.file),
          prompt: request.input.description,
          password: request.input.password,
          ...(request.input.default !== undefined && !request.input.password ? { value: request.input.default } : {}),
          ignoreFocusOut: true,
        },
        cancellation.token,
      );
      return value === undefined ? undefined : value;
    } finally {
      signal.removeEventListener('abort', cancel);
      cancellation.dispose();
    }
  };
}

/**
 * The user's own MCP servers in VS Code: `mcp.json` of the profile, two folders above the extension's global
 * storage (`…/User/globalStorage/<id>` → `…/User/mcp.json`; with a profile, `…/User/profiles/<p>/mcp.json`).
 */
export function vscodeUserMcpFile(globalStorage: vscode.Uri | undefined): string | undefined {
  return globalStorage?.scheme === 'file' ? path.join(globalStorage.fsPath, '..', '..', 'mcp.json') : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
