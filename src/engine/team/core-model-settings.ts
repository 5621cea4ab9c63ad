/**
 * The settings of the engine itself (no capability's): which model answers, at which prices, with which
 * context window, and where telemetry goes. Declared as a capability's are, so the same derivations hold.
 */
import * as z from 'zod';
import { defineSetting } from '../capabilities/capability-descriptor.js';
import { defaultCompactAt } from '../agent/compaction/context-policy.js';

/** A string setting's trimmed value; anything else: '' (the provider's default). */
const storedText = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** role name → model id, keeping only the entries that name a model. */
function storedRoleModels(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const result: Record<string, string> = {};
  for (const [role, model] of Object.entries(value as Record<string, unknown>))
    if (typeof model === 'string' && model.trim() !== '') result[role] = model.trim();
  return result;
}

// Where prompts (and the API key) go is taken from a folder only when it is trusted (the lesson of CVE-2026-21852).
export const coreModelSettings = {
  provider: defineSetting<string>({
    key: 'agentTeam.provider',
    schema: z.enum(['', 'anthropic', 'openai', 'vscode-lm']),
    default: '',
    description:
      'The model provider. When you have not set it, Agent Team uses OpenAI if `#agentTeam.baseUrl#` is set, else whichever provider has a key, else a model VS Code offers (`vscode-lm`, no key needed). Keys are set with **Agent Team: Set API Key** and kept in the secret storage (or come from `ANTHROPIC_API_KEY` / `OPENAI_API_KEY`); **Agent Team: Select Model** lists every model you can use. Ignored in workspace settings in Restricted Mode.',
    scope: 'window',
    trust: 'trusted',
  }),
  model: defineSetting<string>({
    key: 'agentTeam.model',
    schema: z.string(),
    default: '',
    description:
      "The model id, e.g. `claude-sonnet-5-5`, `gpt-5-mini`, or a local model such as `qwen2.5-coder`; with `vscode-lm`, a model's id, family or name as **Agent Team: Select Model** lists them. Empty: the provider's default (with `vscode-lm`: the first model VS Code offers, or in the Chat view the one chosen there). Ignored in workspace settings in Restricted Mode.",
    scope: 'window',
    trust: 'trusted',
    read: storedText,
  }),
  baseUrl: defineSetting<string>({
    key: 'agentTeam.baseUrl',
    schema: z.string(),
    default: '',
    description:
      "The API base URL, for an OpenAI-compatible server or a proxy, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `http://127.0.0.1:1234/v1` (LM Studio); local servers need no key. Empty: the provider's official API. Ignored in workspace settings in Restricted Mode, so a folder cannot send your key elsewhere.",
    scope: 'machine',
    trust: 'trusted',
    read: storedText,
  }),
  roleModels: defineSetting<Record<string, string>>({
    key: 'agentTeam.roleModels',
    schema: z.record(z.string(), z.string()),
    default: {},
    description:
      'A model id per role, e.g. `{ "researcher": "claude-haiku-4-5", "coordinator": "claude-opus-4-5" }`. Wins over a role file\'s `model` and over `#agentTeam.model#`. Ignored in workspace settings in Restricted Mode.',
    scope: 'window',
    trust: 'trusted',
    read: storedRoleModels,
  }),
  // The engine checks the prices (and says what is wrong); the reader hands them over as stored.
  modelPrices: defineSetting<unknown>({
    key: 'agentTeam.modelPrices',
    schema: z.record(z.string(), z.object({ input: z.number(), output: z.number(), cachedInput: z.number().optional() })),
    default: {},
    description:
      'Your prices, over the built-in list: `"provider/model": { "input": 3, "output": 15, "cachedInput": 0.3 }`, in US dollars per million tokens (e.g. `"anthropic/claude-sonnet-5-5"`, `"openai/my-local-model"`). A model with no price shows its cost as unknown, never $0. User settings only.',
    scope: 'application',
    trust: 'user',
    read: (stored) => stored,
  }),
  modelContextWindows: defineSetting<unknown>({
    key: 'agentTeam.modelContextWindows',
    schema: z.record(z.string(), z.number().int().min(1000)),
    default: {},
    description:
      'Context windows of models the built-in list does not know, in tokens: `"provider/model": 128000` (e.g. `"openai/my-local-model": 32768`). A model with no known window has no meter and is compacted only when its provider refuses a request as too long. User settings only.',
    scope: 'application',
    trust: 'user',
    read: (stored) => stored,
  }),
  compactAt: defineSetting<number>({
    key: 'agentTeam.compactAt',
    schema: z.number().min(0.2).max(1),
    default: defaultCompactAt,
    description:
      "When a task's conversation would fill this fraction of its model's context window, the older turns are summarised by the task's own model and the task goes on from the summary (the task, the instruction files and the last steps are kept as they are). The compaction shows in the task's transcript as \"compacted: N → M tokens\" with the summary. `0.8` (the default): at 80 %. User settings only.",
    scope: 'application',
    trust: 'user',
  }),
  otlpEndpoint: defineSetting<string>({
    key: 'agentTeam.otlpEndpoint',
    schema: z.string(),
    default: '',
    description:
      "An OpenTelemetry collector (OTLP over HTTP, e.g. `http://localhost:4318`): each run's spans go there, following the GenAI conventions (`invoke_agent` per task, nested as the tree is; `chat` per model request; `execute_tool` per tool call). Empty: the extension host's `OTEL_EXPORTER_OTLP_ENDPOINT`, if any; otherwise nothing is loaded or sent. User settings only; read when the engine starts (reload the window after a change).",
    scope: 'application',
    trust: 'user',
  }),
  otlpCaptureContent: defineSetting<boolean>({
    key: 'agentTeam.otlpCaptureContent',
    schema: z.boolean(),
    default: false,
    description:
      'Put prompts, model outputs and tool arguments and results into the spans (API keys replaced). Off: spans carry names, models, tokens, cost and timing only. User settings only.',
    scope: 'application',
    trust: 'user',
  }),
};
