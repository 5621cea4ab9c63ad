/**
 * Which provider and model the CLI uses: flags first, then the environment. An explicit choice is never
 * second-guessed; without one, a key in the environment or a base URL decides.
 */
import type { ModelProvider, ModelSettings } from '../engine/index.js';
import type { RunArguments } from './arguments.js';

export function cliModelSettings(
  args: Pick<RunArguments, 'provider' | 'model' | 'baseUrl'>,
  environment: NodeJS.ProcessEnv,
): ModelSettings {
  return {
    provider: args.provider ?? guessProvider(args.baseUrl, environment),
    model: args.model ?? '',
    ...(args.baseUrl === undefined ? {} : { baseUrl: args.baseUrl }),
  };
}

function guessProvider(baseUrl: string | undefined, environment: NodeJS.ProcessEnv): ModelProvider {
  // A base URL without a provider almost always means an OpenAI-compatible local server (Ollama, vLLM…).
  if (baseUrl !== undefined) return 'openai';
  if (environment.ANTHROPIC_API_KEY) return 'anthropic';
  if (environment.OPENAI_API_KEY) return 'openai';
  return 'anthropic';
}
