/**
 * Parse errors that name the kind and the place of the error, never the text: V8's JSON.parse quotes what
 * it choked on, the YAML parser names aliases and tags; a settings or role file may be a secret.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { echoFreeYamlMessage, parseJsonQuietly } from '../../src/engine/workspace/echo-free-parse.js';

const key = 'AKIAIOSFODNN7EXAMPLE';

describe('parse errors without the content', () => {
  it('JSON: the line and column when V8 gives them, never the token', () => {
    expect(() => JSON.parse(key)).toThrow(key); // what V8 would have shown
    expect(parseJsonQuietly(key)).toEqual({ ok: false, problem: 'it is not valid JSON' });
    expect(parseJsonQuietly(`{\n  "a": ${key}\n}`)).toEqual({ ok: false, problem: 'it is not valid JSON' });
    expect(parseJsonQuietly('{\n"a": 1,\n}')).toEqual({ ok: false, problem: 'it is not valid JSON (line 3, column 1)' });
    expect(parseJsonQuietly('{ "hooks": ')).toEqual({ ok: false, problem: 'it is not valid JSON (it ends too early)' });
    expect(parseJsonQuietly('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('YAML: the kind of error, without aliases, tags or quoted text', () => {
    const messages = [`x: *${key}`, `x: !${key} v`, `a: "${key}`, `${key}: [`].flatMap((text) => {
      const document = parseDocument(text, { prettyErrors: true });
      const errors = document.errors.map((error) => error.message);
      try {
        document.toJS();
      } catch (error) {
        errors.push(String(error));
      }
      return [...errors, ...document.warnings.map((warning) => warning.message)];
    });
    expect(messages.join('\n')).toContain(key);
    const cleaned = messages.map(echoFreeYamlMessage);
    expect(cleaned.join('\n')).not.toContain(key);
    expect(cleaned).toContain('Unresolved alias (the anchor must be set before the alias)');
    expect(cleaned).toContain('Unresolved tag');
  });
});
