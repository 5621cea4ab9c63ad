/** Finding and checking a role's JSON: the answer's trailing JSON, a JSON prompt, and patterns run on RE2. */
import { describe, expect, it } from 'vitest';
import { promptJson, trailingJson } from '../../src/engine/roles/json-answer.js';
import { checkAnswer, promptProblem } from '../../src/engine/roles/structured-result.js';

const filesSchema = {
  type: 'object',
  properties: { files: { type: 'array', items: { type: 'string' } } },
  required: ['files'],
  additionalProperties: false,
};

describe('trailingJson', () => {
  it.each([
    ['the whole answer', '{"files": ["a.ts"]}', { files: ['a.ts'] }],
    ['a fenced block at the end', 'Found them.\n```json\n{"files": ["a.ts"]}\n```', { files: ['a.ts'] }],
    ['a pretty-printed value after prose', 'Found them:\n{\n  "files": [\n    "a.ts"\n  ]\n}', { files: ['a.ts'] }],
    [
      'a value after prose on the same line',
      'Sorry (see [1]): {"count": 3, "nested": {"deep": [1, [2]]}}',
      { count: 3, nested: { deep: [1, [2]] } },
    ],
    ['a value whose strings hold brackets', 'Here:\n{"note": "a } and a ]", "list": [1]}', { note: 'a } and a ]', list: [1] }],
    ['an array whose items start lines', 'List:\n[\n  {"a": 1},\n  {"b": 2}\n]', [{ a: 1 }, { b: 2 }]],
  ])('finds %s', (_, answer, value) => {
    expect(trailingJson(answer)).toEqual({ found: true, value });
  });

  it('says why when the answer does not end with JSON, without quoting it', () => {
    expect(trailingJson('{"files": ["a.ts"]}\nThat is all.')).toEqual({
      found: false,
      problem: expect.stringContaining('does not end with a JSON value'),
    });
    const broken = trailingJson('```json\n{"files": [secret-token}\n```');
    expect(broken).toEqual({
      found: false,
      problem: expect.stringMatching(/^the fenced block at the end is not valid JSON \(invalid JSON( at character \d+)?\)$/),
    });
    expect(trailingJson('   ')).toEqual({ found: false, problem: 'the answer is empty' });
  });

  it('stays quick on a long answer full of brackets', () => {
    const answer = `${'{ [ not json\n'.repeat(20_000)}done`;
    const started = performance.now();
    expect(trailingJson(answer).found).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('promptJson', () => {
  it('takes JSON alone or in one fenced block, and nothing around it', () => {
    expect(promptJson(' {"city": "Paris"} ')).toEqual({ found: true, value: { city: 'Paris' } });
    expect(promptJson('```json\n{"city": "Paris"}\n```')).toEqual({ found: true, value: { city: 'Paris' } });
    expect(promptJson('Book {"city": "Paris"}')).toEqual({ found: false, problem: expect.stringMatching(/^the prompt is not JSON/) });
  });
});

describe('checkAnswer and promptProblem', () => {
  it('hands on the JSON alone, pretty-printed, when it matches', async () => {
    expect(await checkAnswer(filesSchema, 'Here:\n```json\n{"files":["a.ts"]}\n```')).toEqual({
      ok: true,
      json: '{\n  "files": [\n    "a.ts"\n  ]\n}',
    });
  });

  it('lists what does not match, as a repair can fix it', async () => {
    expect(await checkAnswer(filesSchema, '{"files": [1], "more": true}')).toEqual({
      ok: false,
      repairable: true,
      problems: ["the value must NOT have additional properties ('more')", '/files/0 must be string'],
    });
  });

  it('runs patterns on RE2: a pattern that backtracks forever in V8 answers at once', async () => {
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } };
    const started = performance.now();
    const checked = await checkAnswer(schema, JSON.stringify({ id: `${'a'.repeat(100_000)}!` }));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(checked).toEqual({ ok: false, repairable: true, problems: ['/id must match pattern "^(a+)+$"'] });
  });

  it('a pattern RE2 cannot run makes the schema unusable: no repair is asked for', async () => {
    const schema = { type: 'string', pattern: '^(?=a)a$' };
    const checked = await checkAnswer(schema, '"a"');
    expect(checked).toMatchObject({
      ok: false,
      repairable: false,
      problems: [expect.stringContaining("the role's outputSchema cannot be used")],
    });
  });

  it('names the problem with a prompt, or accepts it', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    expect(await promptProblem(schema, '{"city": "Paris"}')).toBeUndefined();
    expect(await promptProblem(schema, '{"town": "Paris"}')).toBe(
      "the prompt does not match the role's inputSchema: the value must have required property 'city'",
    );
    expect(await promptProblem(schema, 'Paris, please')).toMatch(/^the prompt is not JSON/);
  });
});

describe('a recursive schema', () => {
  it('refuses a value nested too deeply to check, instead of throwing', async () => {
    const schema = { $ref: '#/$defs/node', $defs: { node: { type: 'array', items: { $ref: '#/$defs/node' } } } };
    expect(await checkAnswer(schema, '[[[]]]')).toMatchObject({ ok: true });
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const checked = await checkAnswer(schema, deep);
    expect(checked).toMatchObject({ ok: false });
  });
});
