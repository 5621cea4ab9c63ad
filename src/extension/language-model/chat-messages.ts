/**
 * The engine's provider-neutral request in the shape of VS Code's Language Model API. The stable API has
 * no system role, so the system instruction goes first as a user message of its own (what VS Code's own
 * samples do); tool results carry no error flag, so an error result says so in its text.
 */
import * as vscode from 'vscode';
import { describeImage, type ModelMessage, type ModelRequest, type ToolDefinition } from '../../engine/index.js';

export function toChatMessages(request: Pick<ModelRequest, 'system' | 'messages'>): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  if (request.system.trim() !== '') messages.push(vscode.LanguageModelChatMessage.User(request.system));
  for (const message of request.messages) {
    const converted = toChatMessage(message);
    if (converted) messages.push(converted);
  }
  return messages;
}

export function toChatTools(tools: readonly ToolDefinition[]): vscode.LanguageModelChatTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
}

function toChatMessage(message: ModelMessage): vscode.LanguageModelChatMessage | undefined {
  if (message.role === 'assistant') {
    const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
    for (const part of message.content) {
      if (part.type === 'text') {
        if (part.text !== '') parts.push(new vscode.LanguageModelTextPart(part.text));
      } else {
        parts.push(new vscode.LanguageModelToolCallPart(part.toolCallId, part.toolName, toInputObject(part.input)));
      }
    }
    return parts.length === 0 ? undefined : vscode.LanguageModelChatMessage.Assistant(parts);
  }
  const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart> = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text !== '') parts.push(new vscode.LanguageModelTextPart(part.text));
    } else if (part.type === 'image') {
      // The agent loop replaces images for a model that does not accept them; this is the last guard.
      parts.push(new vscode.LanguageModelTextPart(`[An image, ${describeImage(part)}, was not sent: this model does not accept images.]`));
    } else {
      const text = part.isError ? `Error: ${part.output}` : part.output;
      parts.push(
        new vscode.LanguageModelToolResultPart(part.toolCallId, [new vscode.LanguageModelTextPart(text === '' ? '(no output)' : text)]),
      );
    }
  }
  // Tool results must come first in a user message, right after the assistant's calls (as in the wire APIs).
  parts.sort((a, b) => Number(a instanceof vscode.LanguageModelTextPart) - Number(b instanceof vscode.LanguageModelTextPart));
  return parts.length === 0 ? undefined : vscode.LanguageModelChatMessage.User(parts);
}

/** The API wants an object; input the model sent as invalid JSON was already answered with an error. */
function toInputObject(input: unknown): object {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
}
