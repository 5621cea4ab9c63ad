/**
 * OpenTelemetry through the real CLI bundle against the mock provider, exported over OTLP/HTTP to a
 * receiver in the test: the span tree of a nested run (invoke_agent per task, nested as the tree is; chat
 * per model request; execute_tool per tool call) with the GenAI attributes; prompts only when the user
 * opts in; nothing sent without an endpoint; a bad endpoint is a usage error.
 */
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textTurn, toolCallTurn } from '../support/mock-provider/index.js';
import { agentOf, priorTurns, providerEnvironment, startCli } from './cli-harness.js';
import { useCliWorld } from './cli-world.js';

const world = useCliWorld({ 'notes.txt': 'the launch is on Friday\n' });

interface ReceivedSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  traceId: string;
  kind: number;
  attributes: Record<string, unknown>;
}

let receiver: Server;
let endpoint: string;
let received: ReceivedSpan[];
let requests: number;

beforeEach(async () => {
  received = [];
  requests = 0;
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      requests += 1;
      if (request.url === '/v1/traces' && request.headers['content-type']?.includes('json')) received.push(...spansOf(JSON.parse(body)));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterEach(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** OTLP/JSON: resourceSpans → scopeSpans → spans, attributes as {key, value: {stringValue | intValue | …}}. */
function spansOf(payload: { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }> }): ReceivedSpan[] {
  return (payload.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        name: String(span.name),
        spanId: String(span.spanId),
        traceId: String(span.traceId),
        kind: Number(span.kind),
        ...(span.parentSpanId ? { parentSpanId: String(span.parentSpanId) } : {}),
        attributes: Object.fromEntries(
          ((span.attributes ?? []) as Array<{ key: string; value: Record<string, unknown> }>).map((attribute) => [
            attribute.key,
            Object.values(attribute.value)[0],
          ]),
        ),
      })),
    ),
  );
}

function nestedRun(extraEnvironment: Record<string, string>) {
  world.server.respondWith((request) => {
    if (agentOf(request) === 'researcher')
      return priorTurns(request) === 0 ? toolCallTurn([{ name: 'Read', input: { file_path: 'notes.txt' } }]) : textTurn('Friday.');
    return priorTurns(request) === 0
      ? toolCallTurn([
          { name: 'Agent', input: { subagent_type: 'researcher', description: 'Find the date', prompt: 'When is the launch?' } },
        ])
      : textTurn('The launch is on Friday.');
  });
  const provider = providerEnvironment('openai', world.server.baseUrl);
  return startCli(world.cliPath, ['run', '--json', '--workspace', world.workspace, ...provider.args, 'When is the launch? secret-word'], {
    ...provider.env,
    ...extraEnvironment,
  }).exited;
}

describe('OpenTelemetry from the CLI', () => {
  it('exports the span tree of a nested run with the GenAI attributes, without content unless asked', async () => {
    const { code, stderr } = await nestedRun({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const named = (name: string) => received.filter((span) => span.name === name);
    const [coordinator] = named('invoke_agent coordinator');
    const [researcher] = named('invoke_agent researcher');
    expect(coordinator?.parentSpanId).toBeUndefined();
    expect(researcher?.parentSpanId).toBe(coordinator!.spanId);
    expect(new Set(received.map((span) => span.traceId)).size).toBe(1);
    expect(coordinator!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'coordinator',
      'gen_ai.agent.id': 't1',
      'gen_ai.request.model': 'gpt-5-mini',
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 20,
    });
    // Two model requests each, under their own agent, as clients.
    const chats = named('chat gpt-5-mini');
    expect(chats.filter((span) => span.parentSpanId === coordinator!.spanId)).toHaveLength(2);
    expect(chats.filter((span) => span.parentSpanId === researcher!.spanId)).toHaveLength(2);
    expect(chats[0]!.kind).toBe(3);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-5-mini',
      'gen_ai.usage.output_tokens': 5,
    });
    expect(named('execute_tool Agent')[0]?.parentSpanId).toBe(coordinator!.spanId);
    expect(named('execute_tool Read')[0]).toMatchObject({
      parentSpanId: researcher!.spanId,
      attributes: { 'gen_ai.tool.name': 'Read', 'gen_ai.operation.name': 'execute_tool' },
    });
    expect(JSON.stringify(received)).not.toContain('secret-word');
  });

  it('puts prompts and outputs in the spans only when the user opts in, with the keys kept out', async () => {
    const { code } = await nestedRun({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' });
    expect(code).toBe(0);
    const chat = received.find(
      (span) => span.name === 'chat gpt-5-mini' && String(span.attributes['gen_ai.input.messages']).includes('secret-word'),
    );
    expect(chat).toBeDefined();
    expect(received.some((span) => String(span.attributes['gen_ai.output.messages'] ?? '').includes('The launch is on Friday.'))).toBe(
      true,
    );
    expect(received.find((span) => span.name === 'execute_tool Read')?.attributes['gen_ai.tool.call.result']).toContain(
      'the launch is on Friday',
    );
    expect(JSON.stringify(received)).not.toContain('test-key');
  });

  it('keeps the key out of the spans in its encodings too: base64 of user:key, hex, reversed', async () => {
    const key = 'sk-proj-test-7c4e1a9b2d6f8035';
    const forms = [Buffer.from(`ci:${key}`).toString('base64'), Buffer.from(key).toString('hex'), [...key].reverse().join('')];
    await writeFile(path.join(world.workspace, 'notes.txt'), `the launch is on Friday\n${forms.join('\n')}\n`);
    const { code } = await nestedRun({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      OPENAI_API_KEY: key,
    });
    expect(code).toBe(0);
    expect(received.find((span) => span.name === 'execute_tool Read')?.attributes['gen_ai.tool.call.result']).toContain('[redacted]');
    for (const form of forms) expect(JSON.stringify(received)).not.toContain(form);
  });

  it('sends nothing without an endpoint, and refuses an endpoint that is not http(s)', async () => {
    expect((await nestedRun({})).code).toBe(0);
    expect(requests).toBe(0);
    const refused = await nestedRun({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector:21' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('The OTLP endpoint "ftp://collector:21/v1/traces" must be http or https');
  });
});
