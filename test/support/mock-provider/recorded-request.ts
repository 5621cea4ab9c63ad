/** Which wire protocol a request spoke. */
export type MockProtocol = 'anthropic' | 'openai';

/** One request the mock server received, as the test sees it. */
export interface RecordedRequest {
  /** 0 for the first request the server received, counting every protocol and retries. */
  index: number;
  protocol: MockProtocol;
  method: string;
  /** Without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The key the request presented, from `x-api-key` or `Authorization: Bearer` (either protocol); undefined when none. */
  apiKey: string | undefined;
  /** The parsed JSON body; cast it to the SDK's params type to read it. */
  body: unknown;
  /** `model` from the body. */
  model: string;
  /** The system prompt (Anthropic `system`, or OpenAI's system/developer messages), '' when none. */
  system: string;
  /** The text of the last message: its text parts, or for tool results their contents. */
  lastMessageText: string;
  /** Names of the tools offered. */
  toolNames: string[];
  /** The images anywhere in the conversation, in either protocol's form, as their media type and decoded bytes. */
  images: Array<{ mediaType: string; bytes: Buffer }>;
  /** True when an enforced context window refused it (context-window.ts). */
  refusedAsTooLong?: boolean;
}

/** The key a request presents: Anthropic's SDK sends `x-api-key` or a bearer token depending on version, OpenAI's a bearer token. */
export function presentedApiKey(headers: Record<string, string>): string | undefined {
  return headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer\s+/i, '');
}

/** Reads the routing fields off a parsed body; tolerant of anything, since bad bodies are recorded too. */
export function describeBody(
  protocol: MockProtocol,
  body: unknown,
): Pick<RecordedRequest, 'model' | 'system' | 'lastMessageText' | 'toolNames' | 'images'> {
  const record = isRecord(body) ? body : {};
  const messages = Array.isArray(record.messages) ? record.messages.filter(isRecord) : [];
  const tools = Array.isArray(record.tools) ? record.tools.filter(isRecord) : [];
  const model = typeof record.model === 'string' ? record.model : '';
  if (protocol === 'anthropic') {
    return {
      model,
      system: contentText(record.system),
      lastMessageText: contentText(messages.at(-1)?.content),
      toolNames: tools.map((tool) => String(tool.name)),
      images: messages.flatMap((message) => imagesOf(message.content)),
    };
  }
  const systemMessages = messages.filter((message) => message.role === 'system' || message.role === 'developer');
  const conversation = messages.filter((message) => message.role !== 'system' && message.role !== 'developer');
  return {
    model,
    system: systemMessages.map((message) => contentText(message.content)).join('\n'),
    lastMessageText: contentText(conversation.at(-1)?.content),
    toolNames: tools.map((tool) => (isRecord(tool.function) ? String(tool.function.name) : '')),
    images: messages.flatMap((message) => imagesOf(message.content)),
  };
}

/** Anthropic's `{type: 'image', source: {type: 'base64'}}` and OpenAI's `{type: 'image_url'}` with a data URL. */
function imagesOf(content: unknown): Array<{ mediaType: string; bytes: Buffer }> {
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).flatMap((block) => {
    if (block.type === 'image' && isRecord(block.source) && typeof block.source.data === 'string')
      return [{ mediaType: String(block.source.media_type), bytes: Buffer.from(block.source.data, 'base64') }];
    const url = block.type === 'image_url' && isRecord(block.image_url) ? String(block.image_url.url) : '';
    const match = /^data:([^;]+);base64,(.*)$/s.exec(url);
    return match ? [{ mediaType: match[1]!, bytes: Buffer.from(match[2]!, 'base64') }] : [];
  });
}

/** Text of a content field in either protocol: a string, or blocks with `text` (or a tool result's `content`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .map((block) => (typeof block.text === 'string' ? block.text : contentText(block.content)))
    .filter((text) => text !== '')
    .join('\n');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
