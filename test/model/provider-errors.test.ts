import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ProviderError, StoppedError } from '../../src/engine/errors.js';
import { toProviderFailure } from '../../src/engine/model/provider-errors.js';
import type { ProviderFailureContext } from '../../src/engine/model/provider-failure-context.js';

function anthropicContext(overrides: Partial<ProviderFailureContext> = {}): ProviderFailureContext {
  return {
    provider: 'anthropic',
    displayName: 'Anthropic',
    baseUrl: 'https://api.anthropic.com',
    officialBaseUrl: true,
    apiKeyVariable: 'ANTHROPIC_API_KEY',
    modelId: 'claude-test',
    maxRetries: 2,
    errorClasses: Anthropic,
    signal: new AbortController().signal,
    ...overrides,
  };
}

const headers = new Headers();

describe('toProviderFailure', () => {
  it("names the provider itself for its official API: Anthropic's server failed", () => {
    const sdkError = new Anthropic.InternalServerError(
      529,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      undefined,
      headers,
    );
    const error = toProviderFailure(sdkError, 'request', anthropicContext());
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe("Anthropic's server failed (529, 3 attempts): Overloaded. Try again later.");
    expect(error).toMatchObject({ kind: 'server', status: 529, provider: 'anthropic', baseUrl: 'https://api.anthropic.com' });
  });

  it('quotes a non-JSON error body (a proxy page) without the status echoed twice', () => {
    const sdkError = new OpenAI.APIError(502, undefined, 'Bad Gateway from nginx', headers);
    const context = anthropicContext({ provider: 'openai', displayName: 'OpenAI', errorClasses: OpenAI, maxRetries: 0 });
    expect((toProviderFailure(sdkError, 'request', context) as Error).message).toBe(
      "OpenAI's server failed (502, no retries): Bad Gateway from nginx. Try again later.",
    );
  });

  it('redacts the configured key and key shapes in a non-JSON body (a proxy page), and keeps the raw SDK error out of the cause', () => {
    const key = 'proxy-token-0123456789';
    const page = `Bad Gateway: upstream refused token ${key} (Authorization: Bearer sk-proj-AbCdEfGhIjKlMnOpQrSt)`;
    const sdkError = new OpenAI.APIError(502, undefined, page, headers);
    const context = anthropicContext({ provider: 'openai', displayName: 'OpenAI', errorClasses: OpenAI, maxRetries: 0, secrets: [key] });
    const error = toProviderFailure(sdkError, 'request', context) as ProviderError;
    expect(error.message).toBe(
      "OpenAI's server failed (502, no retries): Bad Gateway: upstream refused token [redacted] (Authorization: Bearer [redacted]). Try again later.",
    );
    expect(error.cause).not.toBe(sdkError);
    expect(error.cause).toMatchObject({ name: 'Error', status: 502 });
    expect(JSON.stringify(error.cause)).not.toContain(key);
  });

  it('says how long a timed-out request waited', () => {
    const error = toProviderFailure(new Anthropic.APIConnectionTimeoutError(), 'request', anthropicContext({ timeoutMs: 30_000 }));
    expect(error).toMatchObject({ kind: 'connection' });
    expect((error as Error).message).toBe(
      'the request to https://api.anthropic.com timed out after 30 s (3 attempts); check the network or raise the timeout',
    );
  });

  it('says what is wrong with a certificate TLS refused, and what to do about it', () => {
    const refused = (code: string) => {
      const cause = Object.assign(new Error('certificate refused'), { code });
      return (
        toProviderFailure(
          new Anthropic.APIConnectionError({ message: 'Connection error.', cause }),
          'request',
          anthropicContext(),
        ) as ProviderError
      ).message;
    };
    expect(refused('SELF_SIGNED_CERT_IN_CHAIN')).toBe(
      'cannot connect to https://api.anthropic.com: its TLS certificate is not trusted (SELF_SIGNED_CERT_IN_CHAIN). If the server is yours, with a certificate of your own, point NODE_EXTRA_CA_CERTS at the certificate that signed it.',
    );
    expect(refused('UNABLE_TO_GET_ISSUER_CERT_LOCALLY')).toContain('is not trusted (UNABLE_TO_GET_ISSUER_CERT_LOCALLY)');
    expect(refused('ERR_TLS_CERT_ALTNAME_INVALID')).toBe(
      'cannot connect to https://api.anthropic.com: its TLS certificate is for another name (ERR_TLS_CERT_ALTNAME_INVALID). Check the host in the base URL.',
    );
    expect(refused('CERT_HAS_EXPIRED')).toBe(
      "cannot connect to https://api.anthropic.com: its TLS certificate is out of date (CERT_HAS_EXPIRED). Check the server's certificate, and this machine's clock.",
    );
    expect(refused('ECONNREFUSED')).toBe('cannot connect to https://api.anthropic.com (is the server running? ECONNREFUSED)');
  });

  it('turns any failure after an abort into StoppedError with the signal reason', () => {
    const controller = new AbortController();
    controller.abort({ kind: 'shutdown' });
    const error = toProviderFailure(new TypeError('terminated'), 'stream', anthropicContext({ signal: controller.signal }));
    expect(error).toBeInstanceOf(StoppedError);
    expect((error as StoppedError).reason).toEqual({ kind: 'shutdown' });
  });

  it('calls garbled event data a cut stream, but leaves a bug of ours as it is', () => {
    const garbled = toProviderFailure(new SyntaxError('Unexpected token < in JSON'), 'stream', anthropicContext());
    expect(garbled).toMatchObject({ kind: 'stream' });
    expect((garbled as Error).message).toContain('unreadable event data');
    const bug = new TypeError('cannot read properties of undefined');
    expect(toProviderFailure(bug, 'stream', anthropicContext())).toBe(bug);
    expect(toProviderFailure(new Error('surprise'), 'request', anthropicContext())).toEqual(new Error('surprise'));
  });
});
