/**
 * A configured key is redacted in its common encodings too: base64 and base64url (alone and inside
 * `base64(user:key)` at every alignment), hex in either case, URL-encoded and reversed; in a tool result
 * (`redactKnownSecrets`) and in a provider error (`redactSecrets`, `ProviderError`). Short values are not
 * encoded-matched, and ordinary text is left alone.
 */
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/engine/errors.js';
import { redactKnownSecrets, redactSecrets, secretValues } from '../../src/engine/secrets.js';

const key = 'test-key-9f3c2a7b41d8e6f0';
const secrets = secretValues([key]);
const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string) => Buffer.from(text).toString('hex');

const encodings: Array<[string, string]> = [
  ['base64', base64(key)],
  ['base64url', base64url(`${key}?>`)],
  ['base64 of user:key (shift 0)', base64(`ab:${key}`)],
  ['base64 of user:key (shift 1)', base64(`x:${key}`)],
  ['base64 of user:key (shift 2)', base64(`user:${key}`)],
  ['base64 of key:password', base64(`${key}:pass`)],
  ['hex', hex(key)],
  ['upper-case hex', hex(key).toUpperCase()],
  ['URL-encoding of every byte', hex(key).replace(/../g, '%$&')],
  ['reversed', [...key].reverse().join('')],
];

describe('redacting the encodings of a configured key', () => {
  it.each(encodings)('redacts the %s form in a tool result, and the run of base64 around it', (_name, encoded) => {
    const text = `Authorization: Basic ${encoded}\nnext line`;
    expect(redactKnownSecrets(text, secrets)).toBe('Authorization: Basic [redacted]\nnext line');
  });

  it.each(encodings)('redacts the %s form in a provider error', (_name, encoded) => {
    const error = new ProviderError('auth', `rejected "${encoded}" as a key`, { provider: 'openai', secrets });
    expect(error.message).toBe('rejected "[redacted]" as a key');
    expect(redactSecrets(`echo: ${encoded}.`, secrets)).toBe('echo: [redacted].');
  });

  it('redacts the base64 of a key inside JSON and in every alignment of a longer text', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'abcd']) {
      const encoded = base64(`${prefix}${key}${prefix}`);
      expect(redactKnownSecrets(`{"header":"${encoded}","ok":true}`, secrets)).toBe('{"header":"[redacted]","ok":true}');
    }
  });

  it('does not encoded-match short values, and leaves ordinary text as it was', () => {
    const short = secretValues(['abc1234']);
    expect(short).toEqual([]);
    const text = `${base64('abc1234')} ${hex('abc1234')} 4321cba`;
    expect(redactKnownSecrets(text, ['abc1234'])).toBe(text);
    const ordinary = 'src/engine/secrets.ts:42 uses Buffer.from(value).toString("base64") and dGVzdA==';
    expect(redactKnownSecrets(ordinary, secrets)).toBe(ordinary);
  });

  it('follows a change of the secret set', () => {
    const other = 'other-secret-0a1b2c3d4e5f';
    expect(redactKnownSecrets(base64(other), secrets)).toBe(base64(other));
    expect(redactKnownSecrets(base64(other), secretValues([key, other]))).toBe('[redacted]');
    expect(redactKnownSecrets(hex(key), secrets)).toBe('[redacted]');
  });
});
