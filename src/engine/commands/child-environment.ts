/**
 * The environment of every process whose program agents or role files choose (a `Bash` command, a role's
 * MCP server; a hook will be the next): `childEnvironment`, built from an allowlist,
 * not the host's minus a denylist. Model output decides what runs, so a command could print or send
 * anything it finds; a list of names that look secret always misses one (`DATABASE_URL` with a password
 * in it, `PGPASSWORD`, `MYSQL_PWD`, a proxy with credentials). So a command gets the system's basics and
 * the toolchains' locations, the variables the user names (`--pass-env`, `agentTeam.passEnvironment`),
 * and never a configured secret's value under any name. The engine's own helpers (git for scratch copies,
 * ripgrep, the sandbox probe) run programs it chose, with arguments it chose, and inherit its environment.
 */
import { minimumSecretLength } from '../secrets.js';
import { gitLocationVariables } from './git-runner.js';

/** What every command gets from the host, when set there (compared in upper case, as Windows does). */
const passedNames = new Set([
  // The system's basics.
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  // Where toolchains live: a test needs its compiler, interpreter and packages.
  'NVM_DIR',
  'NVM_BIN',
  'NVM_INC',
  'VOLTA_HOME',
  'FNM_DIR',
  'FNM_MULTISHELL_PATH',
  'NODE_PATH',
  'JAVA_HOME',
  'GOROOT',
  'GOPATH',
  'GOBIN',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'RBENV_ROOT',
  'GEM_HOME',
  'GEM_PATH',
  'SDKMAN_DIR',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  'DENO_INSTALL',
  'BUN_INSTALL',
  'PNPM_HOME',
  'DOTNET_ROOT',
  'MAVEN_HOME',
  'GRADLE_HOME',
  'PKG_CONFIG_PATH',
  // Certificates a company's network needs.
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  // Proxies, only without credentials in them (checked below).
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'NO_PROXY',
  // Windows' own.
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'COMMONPROGRAMFILES',
  'SYSTEMDRIVE',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
]);

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
  /** Values that must not reach a command under any name (the configured API keys, remote agents' tokens). */
  secretValues?: readonly string[];
  /** Variables the user named to pass as well (`--pass-env`, `agentTeam.passEnvironment`). */
  passNames?: readonly string[];
}

export function childEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  options: CommandEnvironmentOptions = {},
): Record<string, string> {
  const secrets = new Set((options.secretValues ?? []).filter((value) => value.length >= minimumSecretLength));
  const named = new Set((options.passNames ?? []).map((name) => name.toUpperCase()));
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || holdsSecret(value, secrets)) continue;
    if (named.has(name.toUpperCase()) || isPassedVariable(name, value)) environment[name] = value;
  }
  return { ...environment, ...quietSettings };
}

/** True when a command gets this variable without the user naming it: for the tests and the docs' list. */
export function isPassedVariable(name: string, value: string): boolean {
  const upper = name.toUpperCase();
  // Git variables from the host would point commands at the user's repository instead of the copy's.
  if (gitLocationVariables.test(name)) return false;
  if (upper.endsWith('_PROXY') && hasCredentials(value)) return false;
  return passedNames.has(upper) || upper.startsWith('LC_');
}

/** `http://user:password@proxy:3128`, or without the scheme (curl takes `user:password@proxy:3128`). */
function hasCredentials(value: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/@\s]*@/i.test(value.trim());
}

/** True when the value holds a configured secret, whole or as part (`Bearer sk-…`, a URL with the key). */
function holdsSecret(value: string, secrets: ReadonlySet<string>): boolean {
  for (const secret of secrets) if (value.includes(secret)) return true;
  return false;
}

/** The names among `names` whose value in `source` is a configured secret: they are not passed. */
export function namesHoldingSecrets(
  source: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
  secretValues: readonly string[],
): string[] {
  const secrets = new Set(secretValues.filter((value) => value.length >= minimumSecretLength));
  return names.filter((name) => {
    const value = source[name];
    return value !== undefined && holdsSecret(value, secrets);
  });
}
