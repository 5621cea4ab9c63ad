/**
 * A model whose every request is a `chat {model}` span (OpenTelemetry's GenAI conventions), under the
 * task's `invoke_agent` span: the model, the token usage and why the response finished; the messages only
 * when the user opted in to content capture.
 */
import { type Context, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { Model, ModelRequest, ModelStreamEvent } from '../model/types.js';

export function tracedModel(
  model: Model,
  tracer: Tracer,
  parent: () => Context,
  options: { captureContent: boolean; redact(text: string): string },
): Model {
  return {
    provider: model.provider,
    modelId: model.modelId,
    ...(model.acceptsImages !== undefined ? { acceptsImages: model.acceptsImages } : {}),
    stream: (request) => traced(model, request, tracer, parent(), options),
  };
}

async function* traced(
  model: Model,
  request: ModelRequest,
  tracer: Tracer,
  parent: Context,
  options: { captureContent: boolean; redact(text: string): string },
): AsyncIterable<ModelStreamEvent> {
  const span = tracer.startSpan(
    `chat ${model.modelId}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': model.provider,
        'gen_ai.request.model': model.modelId,
        ...(request.maxOutputTokens !== undefined ? { 'gen_ai.request.max_tokens': request.maxOutputTokens } : {}),
        ...(options.captureContent
          ? {
              'gen_ai.system_instructions': options.redact(request.system),
              'gen_ai.input.messages': options.redact(JSON.stringify(request.messages.map(withoutImageBytes))),
            }
          : {}),
      },
    },
    parent,
  );
  let output = '';
  let ended = false;
  try {
    for await (const event of model.stream(request)) {
      if (event.type === 'usage')
        span.setAttributes({
          'gen_ai.usage.input_tokens': event.usage.inputTokens,
          'gen_ai.usage.output_tokens': event.usage.outputTokens,
        });
      else if (event.type === 'finish') span.setAttribute('gen_ai.response.finish_reasons', [event.stopReason]);
      else if (event.type === 'text-delta' && options.captureContent && output.length < 65_536) output += event.text;
      yield event;
    }
    ended = true;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: options.redact(error instanceof Error ? error.message : String(error)) });
    span.setAttribute('error.type', error instanceof Error ? error.name : 'error');
    throw error;
  } finally {
    if (options.captureContent && output !== '')
      span.setAttribute(
        'gen_ai.output.messages',
        options.redact(JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: output }] }])),
      );
    // A consumer that stopped reading (a stop) ends the span too; it says so.
    if (!ended && span.isRecording()) span.setAttribute('agent_team.request.ended_early', true);
    span.end();
  }
}

/** Images are not sent as telemetry: their bytes would swamp the span. */
function withoutImageBytes(message: ModelRequest['messages'][number]): unknown {
  if (message.role !== 'user') return message;
  return {
    ...message,
    content: message.content.map((part) => (part.type === 'image' ? { type: 'image', mediaType: part.mediaType, name: part.name } : part)),
  };
}
