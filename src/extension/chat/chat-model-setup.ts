/**
 * The models a run started from the Chat view (or by another agent) uses. The user's settings win when
 * they name a model that works; otherwise, and when `vscode-lm` is in use without a model of its own, the
 * model chosen in the chat's model picker runs the team: no key needed, the one the user is looking at.
 */
import * as vscode from 'vscode';
import { vscodeLmProvider } from '../language-model/language-model-errors.js';
import type { ModelSetup } from '../model-setup.js';

export function modelSetupForChat(setup: ModelSetup, chatModel: Pick<vscode.LanguageModelChat, 'id'> | undefined): ModelSetup | undefined {
  const settingsDefer = setup.provider === vscodeLmProvider ? setup.model === '' || !setup.configured : !setup.configured;
  if (chatModel && settingsDefer) return { ...setup, provider: vscodeLmProvider, model: chatModel.id, configured: true };
  return setup.configured ? setup : undefined;
}

export function noModelAdvice(): string {
  return vscode.l10n.t(
    'Agent Team has no model to run: choose one in the chat\u2019s model picker, run "Agent Team: Select Model", set an API key ("Agent Team: Set API Key"), or point agentTeam.baseUrl at an OpenAI-compatible server.',
  );
}
