/**
 * Provider `vscode-lm`: the engine's `Model` over a model VS Code offers (`vscode.lm`), such as Copilot's
 * or another extension's. No key: VS Code asks the user once whether Agent Team may use the model.
 * Stopping cancels the request's token; a model that does not start, or stops, answering within the
 * engine's timeouts fails the request, as over HTTP. VS Code reports no usage, so usage is counted with
 * the model's own tokenizer (`countTokens`) and is an estimate.
 */
import * as vscode from 'vscode';
import {
  type Clock,
  defaultIdleTimeoutMs,
  defaultRequestTimeoutMs,
  IdleWatch,
  type Model,
  type ModelRequest,
  type ModelStreamEvent,
  onAbort,
  systemClock,
  throwIfStopped,
  type Usage,
  withinTimeout,
} from '../../engine/index.js';
import { toChatMessages, toChatTools } from './chat-messages.js';
import { toLanguageModelFailure, vscodeLmProvider } from './language-model-errors.js';

export interface VscodeLanguageModelOptions {
  /** Finds the chat model when the first request needs it; throws a `ProviderError` when there is none. */
  select: () => Promise<vscode.LanguageModelChat>;
  /** The id the settings name ('' for "the first VS Code offers"), shown until the model is found. */
  modelId: string;
  /** Shown by VS Code when it asks the user to allow access. */
  justification?: string;
  clock?: Clock;
  /** How long the response may take to start. Default 600,000 ms. */
  timeoutMs?: number;
  /** How long a started response may send nothing. Default 300,000 ms. */
  idleTimeoutMs?: number;
}

export class VscodeLanguageModel implements Model {
  readonly provider = vscodeLmProvider;
  private chat: Promise<vscode.LanguageModelChat> | undefined;
  private foundId: string | undefined;

  constructor(private readonly options: VscodeLanguageModelOptions) {}

  get modelId(): string {
    return this.foundId ?? (this.options.modelId || 'default');
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    const { signal } = request;
    throwIfStopped(signal);
    const clock = this.options.clock ?? systemClock;
    const cancellation = new vscode.CancellationTokenSource();
    const stopListening = onAbort(signal, () => cancellation.cancel());
    const idle = new IdleWatch(clock, this.options.idleTimeoutMs ?? defaultIdleTimeoutMs, () => cancellation.cancel());
    let name = this.modelId;
    try {
      const chat = await this.choose();
      name = chat.name || chat.id;
      const messages = toChatMessages(request);
      const inputTokens = countTokens(chat, messages, cancellation.token);
      const requestOptions: vscode.LanguageModelChatRequestOptions = {
        justification: this.options.justification,
        ...(request.tools.length > 0 ? { tools: toChatTools(request.tools), toolMode: vscode.LanguageModelChatToolMode.Auto } : {}),
      };
      const response = await withinTimeout(
        Promise.resolve(chat.sendRequest(messages, requestOptions, cancellation.token)),
        { clock, timeoutMs: this.options.timeoutMs ?? defaultRequestTimeoutMs, phase: 'response-start' },
        () => cancellation.cancel(),
      );
      let output = '';
      let calledTools = false;
      const parts = response.stream[Symbol.asyncIterator]();
      for (;;) {
        const step = await idle.wait(parts.next());
        throwIfStopped(signal);
        if (step.done) break;
        const part: unknown = step.value;
        if (part instanceof vscode.LanguageModelTextPart) {
          if (part.value === '') continue;
          output += part.value;
          yield { type: 'text-delta', text: part.value };
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          calledTools = true;
          const rawInput = JSON.stringify(part.input ?? {});
          output += rawInput;
          yield { type: 'tool-call', toolCallId: part.callId, toolName: part.name, input: part.input ?? {}, rawInput };
        }
        // Other parts (data, thinking) carry nothing the engine uses.
      }
      const usage = await usageOf(await inputTokens, countTokens(chat, output, cancellation.token));
      if (usage) yield { type: 'usage', usage };
      yield { type: 'finish', stopReason: calledTools ? 'tool-use' : 'end-turn' };
    } catch (error) {
      throw toLanguageModelFailure(error, name, signal);
    } finally {
      idle.dispose();
      stopListening();
      cancellation.dispose();
    }
  }

  private async choose(): Promise<vscode.LanguageModelChat> {
    this.chat ??= this.options.select();
    // A failed lookup is tried again next turn: the user may have signed in meanwhile.
    this.chat.catch(() => (this.chat = undefined));
    const chat = await this.chat;
    this.foundId = chat.id;
    return chat;
  }
}

/** Counts with the model's tokenizer; undefined when it cannot (counting never fails a request). */
async function countTokens(
  chat: vscode.LanguageModelChat,
  what: string | readonly vscode.LanguageModelChatMessage[],
  token: vscode.CancellationToken,
): Promise<number | undefined> {
  try {
    if (typeof what === 'string') return what === '' ? 0 : await chat.countTokens(what, token);
    const counts = await Promise.all(what.map((message) => chat.countTokens(message, token)));
    return counts.reduce((sum, count) => sum + count, 0);
  } catch {
    return undefined;
  }
}

async function usageOf(inputTokens: number | undefined, outputCount: Promise<number | undefined>): Promise<Usage | undefined> {
  const outputTokens = await outputCount;
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  return { inputTokens, outputTokens };
}
