import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/engine/errors.js';
import { redactedErrorCopy, redactErrorInPlace, redactSecrets, secretValues } from '../../src/engine/secrets.js';

const anthropicKey = 'sk-ant-api03-Zx8qT1mN4vB7kL0pR2sD5fG9hJ3wE6yU-aQ1cV4bN7mK0lP3oI6uY9tR2eW5qA8sD1fG4hJ7kL0zX3cV6bN9mQ-AbCdEfAA';

describe('redactSecrets', () => {
  it('replaces every occurrence of a known value, longest first, and skips values too short to be keys', () => {
    const secrets = secretValues(['my-local-proxy-token', undefined, '', 'short', 'my-local-proxy-token-2']);
    expect(secrets).toEqual(['my-local-proxy-token-2', 'my-local-proxy-token']);
    expect(redactSecrets('a my-local-proxy-token-2 b my-local-proxy-token c short', secrets)).toBe('a [redacted] b [redacted] c short');
  });

  it('catches a known value that travelled URL-encoded', () => {
    const secrets = secretValues(['key/with+symbols=']);
    expect(redactSecrets('GET /v1/models?token=key%2Fwith%2Bsymbols%3D', secrets)).not.toContain('key%2Fwith');
  });

  it.each([
    ['an Anthropic key', `invalid x-api-key ${anthropicKey}`, 'invalid x-api-key [redacted]'],
    ['an OpenAI project key', 'Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234', 'Incorrect API key provided: [redacted]'],
    [
      'a bearer token',
      'header was "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig"',
      'header was "Authorization: Bearer [redacted]"',
    ],
    ['an x-api-key header value', 'x-api-key: abc123def456', 'x-api-key: [redacted]'],
    ['a JSON api_key field', '{"api_key": "abc123def456", "model": "m"}', '{"api_key": "[redacted]", "model": "m"}'],
    [
      'an api_key query parameter',
      'POST https://proxy.example/v1?api_key=abc123def456&x=1',
      'POST https://proxy.example/v1?api_key=[redacted]&x=1',
    ],
    ['a key query parameter', 'GET /v1beta/models?key=AIzaSyA-1234567890abcdefghijklmnopqrstu', 'GET /v1beta/models?key=[redacted]'],
    ['an AWS access key id', 'credentials AKIAIOSFODNN7EXAMPLE rejected', 'credentials [redacted] rejected'],
    ['an AWS secret access key', 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws_secret_access_key=[redacted]'],
    ['credentials in a URL', 'cannot reach https://user:hunter2@proxy.example/v1', 'cannot reach https://[redacted]@proxy.example/v1'],
  ])('redacts %s whether or not it is known', (_name, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it('leaves ordinary messages alone', () => {
    const message =
      'Anthropic rejected the API key (401): invalid x-api-key. Set ANTHROPIC_API_KEY, or run "Agent Team: Set API Key" in VS Code.';
    expect(redactSecrets(message)).toBe(message);
    expect(redactSecrets('cannot connect to http://127.0.0.1:4000/v1 (is the server running? ECONNREFUSED)')).toContain('127.0.0.1:4000');
  });
});

describe('redacted errors', () => {
  it('copies a cause chain with names, codes and statuses, but no body, headers or key', () => {
    const body = { error: { message: `invalid key ${anthropicKey}` } };
    const inner = Object.assign(new Error(`socket to ${anthropicKey}`), { code: 'ECONNRESET' });
    const sdkError = Object.assign(new Error(`401 ${JSON.stringify(body)}`, { cause: inner }), {
      name: 'AuthenticationError',
      status: 401,
      error: body,
      headers: { 'x-api-key': anthropicKey },
    });
    const copy = redactedErrorCopy(sdkError, [anthropicKey]);
    expect(copy).toMatchObject({ name: 'AuthenticationError', status: 401 });
    expect((copy.cause as Error & { code?: string }).code).toBe('ECONNRESET');
    expect(inspect(copy, { depth: null })).not.toContain(anthropicKey);
    expect(inspect(copy, { depth: null })).not.toContain('x-api-key');
  });

  it('keeps the key out of a ProviderError built by anyone: message, cause and base URL', () => {
    const sdkError = Object.assign(new Error(`bad key ${anthropicKey}`), { error: { message: anthropicKey } });
    const error = new ProviderError(
      'auth',
      `rejected: ${anthropicKey}`,
      { provider: 'anthropic', baseUrl: 'https://k:secret-proxy-pass@proxy.example' },
      { cause: sdkError },
    );
    expect(error.message).toBe('rejected: [redacted]');
    expect(error.baseUrl).toBe('https://[redacted]@proxy.example');
    const printed = inspect(error, { depth: null });
    expect(printed).not.toContain(anthropicKey);
    expect(printed).not.toContain('secret-proxy-pass');
    expect(JSON.stringify(error)).not.toContain(anthropicKey);
  });

  it('redacts an error passed on unchanged in place, keeping its identity', () => {
    const bug = new TypeError(`cannot read ${anthropicKey}`);
    redactErrorInPlace(bug, []);
    expect(bug).toBeInstanceOf(TypeError);
    expect(bug.message).toBe('cannot read [redacted]');
    expect(bug.stack).not.toContain(anthropicKey);
  });
});
