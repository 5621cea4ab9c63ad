/**
 * Which of VS Code's language models a role runs on. `agentTeam.model` (or a per-role model) names one by
 * id, by family or by name, as the model picker shows them; empty means the first VS Code offers.
 */
import * as vscode from 'vscode';
import { noChatModelError } from './language-model-errors.js';

/** What the model picker and the sidebar show of one model. */
export interface ChatModelSummary {
  id: string;
  name: string;
  vendor: string;
  family: string;
}

/** Every model VS Code offers now; [] when the API is missing (an older VS Code) or fails. */
export async function listChatModels(): Promise<vscode.LanguageModelChat[]> {
  try {
    return (await vscode.lm?.selectChatModels()) ?? [];
  } catch {
    return [];
  }
}

export function summarize(model: vscode.LanguageModelChat): ChatModelSummary {
  return { id: model.id, name: model.name, vendor: model.vendor, family: model.family };
}

/** The model `wanted` names among `models`, matched by id, then family, then name (case-insensitive). */
export function findChatModel<Chat extends ChatModelSummary>(models: readonly Chat[], wanted: string): Chat | undefined {
  const name = wanted.trim().toLowerCase();
  if (name === '') return models[0];
  return (
    models.find((model) => model.id.toLowerCase() === name) ??
    models.find((model) => model.family.toLowerCase() === name) ??
    models.find((model) => model.name.toLowerCase() === name)
  );
}

/** The chat model for `wanted`; a `ProviderError` saying what to do when there is none. */
export async function selectChatModel(wanted: string): Promise<vscode.LanguageModelChat> {
  const model = findChatModel(await listChatModels(), wanted);
  if (!model) throw noChatModelError(wanted.trim());
  return model;
}
