import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/engine/errors.js';
import { createModel, defaultModelIds, describeModel, type ModelSettings } from '../../src/engine/model/create-model.js';
import { type MockProviderServer, serverError, startMockProviderServer, textTurn } from '../support/mock-provider/index.js';
import { collect, makeRequest, textOf } from './model-harness.js';

const noEnvironment = { environment: {} };

describe('createModel', () => {
  let server: MockProviderServer;

  beforeEach(async () => {
    server = await startMockProviderServer();
  });

  afterEach(async () => {
    await server.close();
  });

  function configurationError(settings: ModelSettings): ConfigurationError {
    try {
      createModel(settings, noEnvironment);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return error as ConfigurationError;
    }
    throw new Error('expected a ConfigurationError');
  }

  it('refuses a missing Anthropic key, naming the variable and the VS Code command', () => {
    const error = configurationError({ provider: 'anthropic', model: 'claude-sonnet-5-5' });
    expect(error.message).toBe('no Anthropic API key: set ANTHROPIC_API_KEY (or, in VS Code, run "Agent Team: Set API Key").');
  });

  it('refuses a missing OpenAI key, and points local servers at --base-url', () => {
    const error = configurationError({ provider: 'openai', model: '' });
    expect(error.message).toContain('set OPENAI_API_KEY');
    expect(error.message).toContain('--base-url');
  });

  it('needs no key for a base URL, and names the model by its provider', async () => {
    const model = createModel({ provider: 'openai', model: 'llama3.1:8b', baseUrl: server.openaiBaseUrl }, noEnvironment);
    expect(describeModel(model)).toBe('openai/llama3.1:8b');
    server.enqueue(textTurn('local answer'));
    expect(textOf(await collect(model.stream(makeRequest())))).toBe('local answer');
    expect(server.requests[0].model).toBe('llama3.1:8b');
  });

  it('takes the key and base URL from the environment when the settings carry none, and the default model', async () => {
    const model = createModel(
      { provider: 'anthropic', model: ' ' },
      { environment: { ANTHROPIC_API_KEY: 'env-key', ANTHROPIC_BASE_URL: server.baseUrl } },
    );
    expect(describeModel(model)).toBe(`anthropic/${defaultModelIds.anthropic}`);
    server.enqueue(textTurn('ok'));
    await collect(model.stream(makeRequest()));
    expect(server.requests[0]).toMatchObject({ protocol: 'anthropic', apiKey: 'env-key', model: defaultModelIds.anthropic });
  });

  it('prefers the key in the settings over the environment', async () => {
    const model = createModel(
      { provider: 'openai', model: 'gpt-test', apiKey: 'settings-key', baseUrl: server.openaiBaseUrl },
      { environment: { OPENAI_API_KEY: 'env-key' } },
    );
    server.enqueue(textTurn('ok'));
    await collect(model.stream(makeRequest()));
    expect(server.requests[0].apiKey).toBe('settings-key');
  });

  it('passes maxRetries to the SDK', async () => {
    const model = createModel(
      { provider: 'anthropic', model: 'claude-test', apiKey: 'k', baseUrl: server.baseUrl, maxRetries: 1 },
      noEnvironment,
    );
    server.enqueue(serverError(), serverError(), textTurn('never reached'));
    await expect(collect(model.stream(makeRequest()))).rejects.toMatchObject({ kind: 'server', status: 500 });
    expect(server.requests).toHaveLength(2);
  });

  it('refuses an unknown provider, a malformed base URL and a negative retry count', () => {
    expect(configurationError({ provider: 'gemini' as ModelSettings['provider'], model: 'x', apiKey: 'k' }).message).toBe(
      'unknown provider "gemini": use anthropic or openai',
    );
    expect(configurationError({ provider: 'vscode-lm' as ModelSettings['provider'], model: 'x' }).message).toBe(
      'unknown provider "vscode-lm" (vscode-lm, VS Code\'s own models, works only inside VS Code): use anthropic or openai',
    );
    expect(configurationError({ provider: 'openai', model: 'x', baseUrl: 'localhost:11434' }).message).toMatch(/must start with http/);
    expect(configurationError({ provider: 'openai', model: 'x', baseUrl: 'not a url' }).message).toMatch(/is not a URL/);
    expect(configurationError({ provider: 'openai', model: 'x', apiKey: 'k', maxRetries: -1 }).message).toMatch(/maxRetries must be/);
  });

  it('defaults to current models for each provider', () => {
    expect(defaultModelIds).toEqual({ anthropic: 'claude-sonnet-5-5', openai: 'gpt-5-mini' });
    const model = createModel({ provider: 'openai', model: '', apiKey: 'k' }, noEnvironment);
    expect(describeModel(model)).toBe('openai/gpt-5-mini');
  });
});
