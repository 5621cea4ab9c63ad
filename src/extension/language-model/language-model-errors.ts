/**
 * What VS Code's Language Model API throws, as the engine's errors: a task fails with a sentence that says
 * what happened and what to do (allow access, wait for the quota, choose another model), never with a
 * bare "NoPermissions".
 */
import * as vscode from 'vscode';
import { ProviderError, ResponseTimeout, StoppedError, stopReasonOf } from '../../engine/index.js';

export const vscodeLmProvider = 'vscode-lm';

const chooseAnother = 'or choose another model with "Agent Team: Select Model"';

export function toLanguageModelFailure(error: unknown, modelName: string, signal: AbortSignal): unknown {
  if (signal.aborted) return new StoppedError(stopReasonOf(signal));
  if (error instanceof ProviderError || error instanceof StoppedError) return error;
  const context = { provider: vscodeLmProvider };
  const said = error instanceof Error && error.message.trim() !== '' ? `: ${error.message.trim()}` : '';
  if (error instanceof ResponseTimeout) {
    const what = error.phase === 'idle' ? 'stopped answering for' : 'did not start answering within';
    return new ProviderError(
      'timeout',
      `the language model "${modelName}" ${what} ${Math.round(error.timeoutMs / 1000)} s; try again, ${chooseAnother}`,
      context,
      { cause: error },
    );
  }
  if (error instanceof vscode.LanguageModelError) {
    switch (error.code) {
      case vscode.LanguageModelError.NoPermissions().code:
        return new ProviderError(
          'auth',
          `VS Code did not let Agent Team use the language model "${modelName}"${said}. Allow it when VS Code asks (Accounts menu > Manage Language Model Access), ${chooseAnother}.`,
          context,
          { cause: error },
        );
      case vscode.LanguageModelError.Blocked().code:
        return new ProviderError(
          'rate-limit',
          `the language model "${modelName}" refused the request (quota or rate limit)${said}. Wait and try again, ${chooseAnother}.`,
          context,
          {
            cause: error,
          },
        );
      case vscode.LanguageModelError.NotFound().code:
        return new ProviderError(
          'bad-request',
          `the language model "${modelName}" is no longer available${said}. Its extension may be disabled or signed out; ${chooseAnother}.`,
          context,
          {
            cause: error,
          },
        );
      default:
        break;
    }
  }
  return new ProviderError('server', `the language model "${modelName}" failed${said || ' without saying why'}`, context, { cause: error });
}

/** No model matches the settings (none installed, or the chosen one is gone). */
export function noChatModelError(wanted: string): ProviderError {
  const which = wanted === '' ? 'VS Code offers no language model' : `VS Code offers no language model "${wanted}"`;
  return new ProviderError(
    'bad-request',
    `${which}. Install or sign in to a model provider (such as GitHub Copilot), ${chooseAnother.replace('or ', '')}, or set agentTeam.provider to anthropic or openai.`,
    { provider: vscodeLmProvider },
  );
}
