/**
 * Model failover over scripted models: which failures move a request on to the next model (outages) and
 * which fail as they are (mistakes to fix, stops, bugs), the order, the last error when every model fails,
 * a stop during failover, the model that answered staying in use, and, through the agent loop, a partial
 * answer voided and said so.
 */
import { describe, expect, it } from 'vitest';
import { ProviderError, type ProviderErrorKind, StoppedError } from '../../src/engine/errors.js';
import { FailoverModel, withFallbacks } from '../../src/engine/model/failover-model.js';
import { isOutage } from '../../src/engine/model/failover-policy.js';
import { type Model, type ModelRequest, type ModelStreamEvent, stopsAtOnce } from '../../src/engine/model/types.js';
import { ScriptedModel } from '../../src/engine/testing/scripted-model.js';
import { run } from '../agent/support.js';

const { text, fail, held } = ScriptedModel;

function providerError(kind: ProviderErrorKind, status?: number, message = `${kind} ${status ?? ''}`): ProviderError {
  return new ProviderError(kind, message, { provider: 'anthropic', ...(status === undefined ? {} : { status }) });
}

const overloaded = () => providerError('server', 529, "Anthropic's server failed (529, 3 attempts): Overloaded. Try again later.");

function model(modelId: string, steps: ConstructorParameters<typeof ScriptedModel>[0] = []): ScriptedModel {
  return new ScriptedModel(steps, { provider: 'anthropic', modelId });
}

function request(signal = new AbortController().signal): ModelRequest {
  return {
    system: 'You are a test agent.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Do the task.' }] }],
    tools: [],
    signal,
  };
}

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('which failures fail over', () => {
  it.each<[string, ProviderError]>([
    ['529 overloaded', overloaded()],
    ['500', providerError('server', 500)],
    ['an in-stream error event', providerError('server')],
    ['429 (rate limits are per model)', providerError('rate-limit', 429)],
    [
      'a refused connection',
      providerError('connection', undefined, 'cannot connect to http://127.0.0.1:9 (is the server running? ECONNREFUSED)'),
    ],
    ['a timeout', providerError('timeout')],
    ['408', providerError('bad-request', 408)],
    ['a stream cut short', providerError('stream')],
  ])('%s is an outage: the same request goes to the next model', async (_name, error) => {
    const first = model('m1', [error]);
    const second = model('m2', ['Answered by m2.']);
    const events = await collect(new FailoverModel([first, second]).stream(request()));
    expect(events[0]).toEqual({
      type: 'model-switch',
      model: 'anthropic/m2',
      notice: `model anthropic/m1 failed (${error.message}); continuing on anthropic/m2`,
    });
    expect(events).toContainEqual({ type: 'text-delta', text: 'Answered by m2.' });
    expect(second.calls[0]?.request).toEqual(first.calls[0]?.request);
  });

  it.each<[string, unknown]>([
    ['401', providerError('auth', 401)],
    ['403', providerError('auth', 403)],
    ['400', providerError('bad-request', 400)],
    ['404 (no such model)', providerError('bad-request', 404)],
    ['413', providerError('bad-request', 413)],
    ['a redirect refused', providerError('bad-request', 308)],
    [
      'an untrusted certificate',
      new ProviderError(
        'connection',
        'cannot connect',
        { provider: 'anthropic' },
        { cause: Object.assign(new Error('self-signed'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }) },
      ),
    ],
    ['a stop', new StoppedError({ kind: 'user' })],
    ['a bug (not a provider error)', new TypeError('undefined is not a function')],
  ])('%s is not: it fails as it is, and the next model is never asked', async (_name, error) => {
    const second = model('m2', ['never']);
    await expect(collect(new FailoverModel([model('m1', [error as Error]), second]).stream(request()))).rejects.toBe(error);
    expect(second.callTotal).toBe(0);
    expect(isOutage(error)).toBe(false);
  });
});

describe('FailoverModel', () => {
  it('tries the models in order, and fails with the last one\u2019s error when all fail', async () => {
    const last = providerError('server', 503, 'm3 is down too');
    const models = [model('m1', [overloaded()]), model('m2', [providerError('timeout')]), model('m3', [last])];
    const events: ModelStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of new FailoverModel(models).stream(request())) events.push(event);
      })(),
    ).rejects.toBe(last);
    expect(events.map((event) => event.type === 'model-switch' && event.model)).toEqual(['anthropic/m2', 'anthropic/m3']);
    expect(models.map((each) => each.callTotal)).toEqual([1, 1, 1]);
  });

  it('keeps the model that answered for later requests, and names it', async () => {
    const first = model('m1', [overloaded()]);
    const second = model('m2', ['One.', 'Two.']);
    const failover = new FailoverModel([first, second]);
    expect(failover.modelId).toBe('m1');
    await collect(failover.stream(request()));
    expect(failover.modelId).toBe('m2');
    expect(await collect(failover.stream(request()))).toContainEqual({ type: 'text-delta', text: 'Two.' });
    expect(first.callTotal).toBe(1);
  });

  it('a stop while the next model answers ends the request with the stop; no further model is asked', async () => {
    const controller = new AbortController();
    const hold = held([text('Start')]);
    const third = model('m3', ['never']);
    const stream = new FailoverModel([model('m1', [overloaded()]), model('m2', [hold]), third]).stream(request(controller.signal));
    const reading = collect(stream);
    await hold.reached;
    controller.abort(new StoppedError({ kind: 'user' }));
    await expect(reading).rejects.toBeInstanceOf(StoppedError);
    expect(third.callTotal).toBe(0);
  });

  it('an outage reported after the request was stopped is a stop: it does not fail over', async () => {
    const controller = new AbortController();
    const second = model('m2', ['never']);
    // A failing fake that reports the outage whatever its signal says, as a provider racing the stop may.
    const error = overloaded();
    const first: Model = {
      provider: 'anthropic',
      modelId: 'm1',
      stream: () => ({
        [Symbol.asyncIterator]: () => ({
          // Said to end its waits on a stop by itself, so no guard races it: the failover decides alone.
          [stopsAtOnce]: true,
          next: () => {
            controller.abort(new StoppedError({ kind: 'user' }));
            return Promise.reject(error);
          },
        }),
      }),
    };
    await expect(collect(new FailoverModel([first, second]).stream(request(controller.signal)))).rejects.toBe(error);
    expect(second.callTotal).toBe(0);
  });

  it('sends a fallback that sees no images notes in their place', async () => {
    const first = new ScriptedModel([overloaded()], { provider: 'anthropic', modelId: 'm1' });
    Object.defineProperty(first, 'acceptsImages', { value: true });
    const second = model('m2', ['Seen.']);
    const withImage: ModelRequest = {
      ...request(),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', mediaType: 'image/png', data: 'AAAA', name: 'shot.png' },
          ],
        },
      ],
    };
    await collect(new FailoverModel([first, second]).stream(withImage));
    expect(first.calls[0]?.request.messages[0]?.content[1]).toMatchObject({ type: 'image' });
    expect(second.calls[0]?.request.messages[0]?.content[1]).toMatchObject({ type: 'text', text: expect.stringContaining('shot.png') });
  });
});

describe('withFallbacks', () => {
  it('is the model itself without fallbacks, and a new failover (its own task\u2019s) with them', () => {
    const primary = model('m1');
    expect(withFallbacks(primary, [])).toBe(primary);
    const fallback = model('m2');
    const one = withFallbacks(primary, [fallback]);
    expect(one).not.toBe(withFallbacks(primary, [fallback]));
    expect((one as FailoverModel).models).toEqual([primary, fallback]);
  });

  it('puts the models asked for first, then what each brought, each model once', () => {
    const [role, roleFallback, run] = [model('role-model'), model('role-fallback'), model('run-fallback')];
    // What a chooser with the run's fallbacks gives for the role's model and for its fallback.
    const chained = withFallbacks(withFallbacks(role, [run]), [withFallbacks(roleFallback, [run])]) as FailoverModel;
    expect(chained.models.map((each) => each.modelId)).toEqual(['role-model', 'role-fallback', 'run-fallback']);
  });
});

describe('through the agent loop', () => {
  it('a model that fails mid-answer: its partial text is void, the turn starts over on the next, and the transcript says so', async () => {
    const first = model('m1', [fail(providerError('stream', undefined, 'the stream was cut'), [text('Half an ans')])]);
    const second = model('m2', ['The whole answer.']);
    const result = await run(new FailoverModel([first, second]));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('The whole answer.');
    expect(result.transcript).toEqual([
      {
        type: 'notice',
        text: 'model anthropic/m1 failed (the stream was cut); continuing on anthropic/m2 (its partial answer is discarded: the turn starts over)',
      },
      { type: 'text', text: 'The whole answer.' },
    ]);
    expect(result.events).toContainEqual({ type: 'model-switch', model: 'anthropic/m2' });
    // The conversation has m2's answer alone.
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'The whole answer.' }] });
  });

  it('a 401 fails the run as it does without fallbacks', async () => {
    const second = model('m2', ['never']);
    const result = await run(
      new FailoverModel([model('m1', [providerError('auth', 401, 'Anthropic rejected the API key (401)')]), second]),
    );
    expect(result.status).toBe('failed');
    expect(result.error).toContain('rejected the API key');
    expect(second.callTotal).toBe(0);
  });
});
