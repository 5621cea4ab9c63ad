/**
 * The environment a command runs with: the host's, minus what a command has no business seeing. Model
 * output decides what runs, so a command could print or send anything it finds; API keys, tokens,
 * passwords and the editor's own channels are dropped by default (by name, and by value for the keys the
 * user configured), and tools are told not to wait for a terminal or colour their output.
 */
import { gitLocationVariables } from './git-runner.js';

/** Names that carry secrets in common tools' conventions. */
const secretName = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|SECRETS|PASSWORD|PASSWD|PASS|PWD_?HASH|CREDENTIALS?|AUTH|COOKIE|SESSION|PRIVATE)(?:_|$)|^(?:AWS|AZURE|GCP|GOOGLE|GH|GITHUB|GITLAB|NPM_CONFIG_\/\/|DOCKER|HEROKU|VAULT|SLACK|STRIPE|TWILIO|SENTRY|DATADOG|DD)_(?!REGION$)/i;

/**
 * The editor's channels: `VSCODE_IPC_HOOK_CLI` lets `code` open files in the user's window; Electron's own
 * switches would change how a spawned Electron app behaves.
 */
const editorName = /^(?:VSCODE_|ELECTRON_)/;

/** Always passed, whatever their names say. */
const keptNames = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'TERM', 'TMPDIR', 'TEMP', 'TMP', 'PWD', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'WINDIR', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA']);

/** Set for every command: no pager, no prompt, no colour codes in what the agent reads. */
const quietSettings: Record<string, string> = {
  CI: '1',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  TERM: 'dumb',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
  AGENT_TEAM_COMMAND: '1',
};

export interface CommandEnvironmentOptions {
  /** Values that must not reach a command under any name (the configured API keys). */
  secretValues?: readonly string[];
}

export function commandEnvironment(source: Readonly<Record<string, string | undefined>>, options: CommandEnvironmentOptions = {}): Record<string, string> {
  const secrets = new Set((options.secretValues ?? []).filter((value) => value.length > 0));
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (isDroppedVariable(name) || secrets.has(value)) continue;
    // Git variables from the host would point commands at the user's repository instead of the copy's.
    if (gitLocationVariables.test(name)) continue;
    environment[name] = value;
  }
  return { ...environment, ...quietSettings };
}

/** True when the variable would be dropped: for the tests and the docs' list. */
export function isDroppedVariable(name: string): boolean {
  return !keptNames.has(name.toUpperCase()) && (secretName.test(name) || editorName.test(name));
}
