/**
 * OpenTelemetry for runs, when the user asks for it: an OTLP/HTTP endpoint in the environment
 * (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_EXPORTER_OTLP_ENDPOINT`) or the host's setting
 * (`agentTeam.otlpEndpoint`). Without one, nothing of OpenTelemetry is loaded and nothing is sent: the
 * packages are imported here, on demand. Prompts and outputs go into spans only when the user opts in
 * (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`, `agentTeam.otlpCaptureContent`).
 */
import type { EngineTelemetry, TelemetryOptions } from './telemetry-types.js';

export type { EngineTelemetry, TelemetryOptions } from './telemetry-types.js';

/** The telemetry, or undefined when no endpoint is configured (then nothing is loaded). Throws on a bad endpoint. */
export async function startTelemetry(options: TelemetryOptions): Promise<EngineTelemetry | undefined> {
  const url = tracesUrl(options.environment, options.endpoint);
  if (url === undefined) return undefined;
  const { createOtlpTelemetry } = await import('./otlp-telemetry.js');
  const captureContent =
    options.captureContent === true || options.environment.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === 'true';
  return createOtlpTelemetry({ ...options, url, captureContent });
}

/** The OTLP/HTTP traces URL: the traces variable as given, else the base endpoint's `/v1/traces`. */
export function tracesUrl(environment: Readonly<Record<string, string | undefined>>, setting: string | undefined): string | undefined {
  const traces = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || setting?.trim();
  const url = traces || (base ? `${base.replace(/\/+$/, '')}${/\/v1\/traces$/.test(base) ? '' : '/v1/traces'}` : undefined);
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`The OTLP endpoint "${url}" is not a URL: set it like http://localhost:4318`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`The OTLP endpoint "${url}" must be http or https (OTLP over HTTP)`);
  return parsed.toString();
}
