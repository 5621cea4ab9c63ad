/**
 * A mock model provider: a real HTTP server on 127.0.0.1 (port 0) that speaks both wire protocols well
 * enough for the real SDKs to parse it, so tests exercise the real clients, retries, streaming and aborts.
 *
 * - Anthropic Messages streaming SSE: `POST /v1/messages` (Anthropic SDK base URL: `server.baseUrl`).
 * - OpenAI Chat Completions streaming SSE: `POST /v1/chat/completions` and `POST /chat/completions`
 *   (OpenAI SDK base URL: `server.openaiBaseUrl`, i.e. `<baseUrl>/v1`).
 *
 * ```ts
 * const server = await startMockProviderServer();          // afterEach: await server.close()
 * server.enqueue(
 *   rateLimited(),                                          // 429, retry-after 0: the SDK retries at once
 *   toolCallTurn([{ name: 'Read', input: { file_path: 'a.ts' } }], 'Let me look.'),
 *   textTurn('Done', '.'),                                  // text deltas "Done" and "."
 * );
 * // … run the code under test against server.baseUrl / server.openaiBaseUrl …
 * expect(server.requests).toHaveLength(3);
 * expect(server.requests[1].body).toMatchObject({ tools: [...] });
 * ```
 *
 * Scripting. Each request takes the next queued response; when the queue is empty, the responder set
 * with `server.respondWith(request => …)` answers (route by `request.system`, `request.lastMessageText`,
 * `request.toolNames` when many agents share one server); with neither, the request gets a 400 naming it.
 * A queued entry may itself be a function of the request. Responses (builders in responses.ts):
 * - a turn `{ type: 'turn', text, toolCalls, usage, stopReason }`: tool inputs are streamed as JSON split
 *   over several deltas; `rawInput` sends text verbatim (invalid JSON, empty input).
 * - `httpError(status)`, `rateLimited()`, `serverError()`, `unauthorized()`: the provider's JSON error body,
 *   with `retry-after: 0` and `retry-after-ms: 1` so SDK retries never slow a test.
 * - `droppedStream(partial)`: streams part of a turn, then destroys the socket (or, with `'end'`, ends the
 *   response cleanly but without the end-of-message events).
 * - `streamError(partial, message)`: streams part of a turn, then the provider's in-stream error event.
 * - `hangingStream(partial)`: streams part of a turn, then waits until the client goes away;
 *   `server.waitForClientClose(index)` resolves then and `server.closedRequests` counts it.
 * - `delayed(response, msOrPromise)`: the server waits before answering (a promise lets the test decide
 *   when, without sleeping); `server.waitForRequest(index)` tells the test the request has arrived, and
 *   `server.waitForResponseSent(index)` that its whole response has gone out.
 * - An error whose body echoes the key the request presented (a misbehaving proxy):
 *   `server.respondWith((request) => httpError(401, { message: 'bad key ' + request.apiKey }))`.
 *
 * `{ contextWindowTokens }` (or `server.enforceContextWindow(tokens)`) enforces a context window: a request
 * past it gets the provider's real context-length error (context-window.ts), and is not answered from the queue.
 *
 * Every request is recorded in `server.requests` (path, lower-case headers, parsed JSON body, and the
 * routing fields above). By default the server also rejects, with a 400 like the real APIs', conversations
 * they would reject (tool calls without results, results without calls, empty text blocks); pass
 * `{ validateRequests: false }` to turn that off, or `{ apiKey }` to require a key.
 *
 * This module imports nothing from vitest, so a plain Node process can run it too (an extension host's
 * end-to-end test, a benchmark).
 */
export { MockProviderServer, type MockProviderServerOptions, startMockProviderServer } from './server.js';
export type { MockProtocol, RecordedRequest } from './recorded-request.js';
export { contextLengthErrorBody, mockTokenCount } from './context-window.js';
export {
  delayed,
  droppedStream,
  hangingStream,
  httpError,
  type MockDelay,
  type MockDroppedStream,
  type MockHangingStream,
  type MockHttpError,
  type MockResponder,
  type MockResponse,
  type MockStreamError,
  type MockToolCall,
  type MockTurn,
  type MockTurnContent,
  rateLimited,
  serverError,
  streamError,
  textTurn,
  toolCallTurn,
  unauthorized,
} from './responses.js';
