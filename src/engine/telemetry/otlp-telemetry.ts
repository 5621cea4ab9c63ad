/**
 * The OpenTelemetry side, loaded only when an endpoint is configured (start-telemetry.ts imports it): a tracer
 * provider of its own (never the process's global one: the extension host is shared with other
 * extensions), batching spans to the OTLP/HTTP endpoint, and the spans of every run the task manager
 * runs. A failed export is logged by OpenTelemetry's own diagnostics, never an error of the run.
 */
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { EngineTelemetry, TelemetryOptions } from './telemetry-types.js';
import { TaskSpans } from './task-spans.js';
import { tracedModel } from './traced-model.js';

export function createOtlpTelemetry(options: TelemetryOptions & { url: string; captureContent: boolean }): EngineTelemetry {
  const exporter = new OTLPTraceExporter({ url: options.url, timeoutMillis: 5_000 });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      ...(options.serviceVersion ? { 'service.version': options.serviceVersion } : {}),
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1_000, exportTimeoutMillis: 5_000 })],
  });
  const tracer = provider.getTracer('agent-team', options.serviceVersion);
  const spans = new TaskSpans(tracer, options.taskManager, { captureContent: options.captureContent, secrets: options.secrets });
  return {
    url: options.url,
    observeModel: (taskId, model) =>
      tracedModel(model, tracer, spans.contextOf(taskId), { captureContent: options.captureContent, redact: (text) => spans.redact(text) }),
    async shutdown() {
      spans.endAll();
      await provider.shutdown();
    },
  };
}
