/**
 * The fake `vscode.lm` and `vscode.chat`: chat models a test scripts part by part (`FakeChatModel`), the
 * Language Model API's value classes, and what the extension registered (tools, chat participants).
 */
import { Disposable, EventEmitter } from './fake-basics.js';

export class LanguageModelTextPart {
  constructor(readonly value: string) {}
}

export class LanguageModelToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}

export class LanguageModelToolResultPart {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
  ) {}
}

export enum LanguageModelChatMessageRole {
  User = 1,
  Assistant = 2,
}

export enum LanguageModelChatToolMode {
  Auto = 1,
  Required = 2,
}

type MessagePart = LanguageModelTextPart | LanguageModelToolCallPart | LanguageModelToolResultPart;

export class LanguageModelChatMessage {
  readonly content: MessagePart[];
  constructor(
    readonly role: LanguageModelChatMessageRole,
    content: string | MessagePart[],
    readonly name?: string,
  ) {
    this.content = typeof content === 'string' ? [new LanguageModelTextPart(content)] : content;
  }
  static User(content: string | MessagePart[], name?: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.User, content, name);
  }
  static Assistant(content: string | MessagePart[], name?: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.Assistant, content, name);
  }
}

export class LanguageModelError extends Error {
  private constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
  static NoPermissions(message = 'no permissions'): LanguageModelError {
    return new LanguageModelError(message, 'NoPermissions');
  }
  static Blocked(message = 'blocked'): LanguageModelError {
    return new LanguageModelError(message, 'Blocked');
  }
  static NotFound(message = 'not found'): LanguageModelError {
    return new LanguageModelError(message, 'NotFound');
  }
}

export class LanguageModelToolResult {
  constructor(readonly content: unknown[]) {}
}

export class MarkdownString {
  constructor(
    public value = '',
    readonly supportThemeIcons = false,
  ) {}
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
  appendText(value: string): this {
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!<>|]/g, '\\$&');
    return this;
  }
}

export class CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.cancelled.event };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.cancelled.fire();
  }
  dispose(): void {
    this.cancelled.dispose();
  }
}

export class ChatRequestTurn {
  constructor(
    readonly prompt: string,
    readonly command: string | undefined,
    readonly participant: string,
  ) {}
}

export class ChatResponseTurn {
  constructor(
    readonly response: unknown[],
    readonly result: { metadata?: Record<string, unknown> },
    readonly participant: string,
    readonly command?: string,
  ) {}
}

export interface FakeChatRequest {
  messages: LanguageModelChatMessage[];
  options: { tools?: Array<{ name: string }>; toolMode?: LanguageModelChatToolMode; justification?: string };
  token: CancellationTokenSource['token'];
}

/** What a scripted model answers one request with: parts to stream, or an error to throw on send. */
export type FakeChatResponder = (request: FakeChatRequest) => AsyncIterable<unknown> | Error;

/** A chat model whose answers a test scripts; it records every request. */
export class FakeChatModel {
  readonly requests: FakeChatRequest[] = [];
  private readonly requested = new EventEmitter<void>();
  readonly version = '1';
  readonly maxInputTokens = 100_000;
  constructor(
    readonly id: string,
    private readonly respond: FakeChatResponder,
    readonly name = id,
    readonly vendor = 'fake',
    readonly family = id,
  ) {}

  async sendRequest(messages: LanguageModelChatMessage[], options: FakeChatRequest['options'], token: FakeChatRequest['token']) {
    const request = { messages, options, token };
    this.requests.push(request);
    this.requested.fire();
    const answer = this.respond(request);
    if (answer instanceof Error) throw answer;
    return { stream: answer, text: (async function* () {})() };
  }

  /** Resolves once `count` requests have arrived (at once if they have). */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const subscription = this.requested.event(() => {
        if (this.requests.length < count) return;
        subscription.dispose();
        resolve();
      });
    });
  }

  async countTokens(value: string | LanguageModelChatMessage): Promise<number> {
    const text = typeof value === 'string' ? value : value.content.map((part) => JSON.stringify(part)).join('');
    return Math.ceil(text.length / 4);
  }
}

export const languageModels = {
  models: [] as FakeChatModel[],
  tools: new Map<
    string,
    { prepareInvocation?(options: unknown, token: unknown): unknown; invoke(options: unknown, token: unknown): Promise<unknown> }
  >(),
  participants: new Map<string, { handler: (...args: unknown[]) => unknown; iconPath?: unknown }>(),
  /** What `vscode.lm.tools` lists: the tools extensions contributed (a test adds other extensions' here). */
  toolInfos: [] as Array<{ name: string; description: string; inputSchema?: object; tags: readonly string[] }>,
  modelsChanged: new EventEmitter<void>(),
  reset(): void {
    this.models = [];
    this.tools.clear();
    this.toolInfos = [];
    this.participants.clear();
    this.modelsChanged = new EventEmitter<void>();
  },
  /** Makes `models` the ones VS Code offers, and says so as VS Code does. */
  offer(...models: FakeChatModel[]): void {
    this.models = models;
    this.modelsChanged.fire();
  },
};

export const lm = {
  async selectChatModels(selector: { vendor?: string; family?: string; id?: string } = {}) {
    return languageModels.models.filter(
      (model) =>
        (!selector.vendor || model.vendor === selector.vendor) &&
        (!selector.family || model.family === selector.family) &&
        (!selector.id || model.id === selector.id),
    );
  },
  onDidChangeChatModels: (listener: () => unknown) => languageModels.modelsChanged.event(listener),
  registerTool(name: string, tool: { invoke(options: unknown, token: unknown): Promise<unknown> }): Disposable {
    languageModels.tools.set(name, tool);
    return new Disposable(() => languageModels.tools.delete(name));
  },
  get tools() {
    return languageModels.toolInfos;
  },
  /** As VS Code: the registered tool's `invoke`, or an error naming the tool when none is registered. */
  async invokeTool(name: string, options: unknown, token: unknown): Promise<unknown> {
    const tool = languageModels.tools.get(name);
    if (!tool) throw new Error(`Tool ${name} was not contributed`);
    return tool.invoke(options, token);
  },
};

export const chat = {
  createChatParticipant(id: string, handler: (...args: unknown[]) => unknown) {
    const participant = { id, handler, iconPath: undefined as unknown, dispose: () => languageModels.participants.delete(id) };
    languageModels.participants.set(id, participant);
    return participant;
  },
};
