/**
 * The git settings that make git run a program, neutralised for every git call Agent Team makes in a
 * user's repository (apply to a branch, the scratch copies): a repository is the attacker's, and its
 * `.git/config` (or a file it includes) can name a program git runs as the user, outside any sandbox,
 * on a plain `git status` (`core.fsmonitor`), a checkout or an add (`filter.<name>.smudge/clean/process`
 * that `.gitattributes` triggers), a commit (hooks, `gpg.program`), a push (`core.sshCommand`,
 * `credential.helper`, `core.askPass`, `remote.<name>.receivepack`).
 *
 * Two kinds: settings no call of ours needs are always set to a harmless value (hooks off, no fsmonitor,
 * no pager or editor, no `ext::` transport, no submodule recursion); settings the user may rely on (their
 * own ssh command, credential helper, signing program, git-lfs filter) are kept when they come from the
 * user's own configuration (system, global, `-c`) and reset when the repository sets them (local,
 * worktree, or a file those include): to the user's own value, else git's default or a pass-through.
 * The system configuration is the machine owner's, never the repository's: it is kept. The neutral
 * values travel as `-c` arguments; the user's own values, put back, only as `GIT_CONFIG_*` variables
 * (private to the user, where a command line is public), which also reach the git that gh runs.
 *
 * Not here, because git keeps the FIRST value of them and a `-c` comes last: `remote.<name>.receivepack`
 * and `uploadpack` (a push passes `--receive-pack` itself: pull-request.ts) and `core.gitProxy` (used only
 * for `git://`, which is never pushed to).
 */
import { AgentTeamError } from '../errors.js';

export interface GitConfigEntry {
  /** As git lists it: section and name lower-case, the subsection as written. */
  key: string;
  value: string;
  /** `system`, `global`, `local`, `worktree`, `command`; `unknown` when this git cannot tell. */
  scope: string;
  /** The file (`file:.git/config`), for messages; '' when unknown. */
  origin: string;
}

/** One `-c key=value`. */
export type ConfigPair = readonly [key: string, value: string];

export interface NeutralGitConfig {
  /** `-c key=value` arguments for the start of a git command line: the settings that hold no value of the user's. */
  arguments: string[];
  /**
   * Every setting, the user's own values put back included, as `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_<n>`/
   * `GIT_CONFIG_VALUE_<n>`: for every git call, and for programs that run git themselves (gh).
   */
  environment: Record<string, string>;
  /** True when the user's own configuration asks for signed commits (`commit.gpgSign`). */
  signCommits: boolean;
  /**
   * True when this git reads `GIT_CONFIG_COUNT` (2.31 and later). Older, `environment` is ignored: the
   * user's own values go on the command line instead (their credential helpers are left out: a push may
   * have to be made by hand), and a program that runs git itself (gh) cannot be given the settings.
   */
  readsEnvironment: boolean;
}

/** A repository setting that no `-c` can neutralise (a key git would read differently after `-c`). */
export class UnneutralisableGitConfigError extends AgentTeamError {
  override readonly name: string = 'UnneutralisableGitConfigError';
  readonly code = 'git-config-unneutralisable';
  constructor(
    readonly key: string,
    readonly origin: string,
  ) {
    super(
      `The repository's git configuration sets ${JSON.stringify(key)}${origin ? ` (in ${origin})` : ''}, a setting that can make git run a program and that Agent Team cannot switch off from the command line; nothing was run. Remove it from the repository's configuration (git config --local --unset), then try again.`,
    );
  }
}

/** Always set, whoever configured otherwise: no call of ours needs a hook, a pager, an editor or more. */
export const alwaysNeutralPairs: readonly ConfigPair[] = Object.freeze([
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['sequence.editor', 'true'],
  // `ext::<command>` runs a command as a "transport"; a repository could allow it and point a remote there.
  ['protocol.ext.allow', 'never'],
  ['submodule.recurse', 'false'],
] as const);

/** Where a value comes from: only these scopes are the user's own. */
const userScopes = new Set(['system', 'global', 'command']);

/**
 * Single-valued keys (lower-case, as git lists them; `*` one subsection) and what they become when the
 * repository sets them and the user does not: git's default, or a pass-through.
 */
const resetValues: ReadonlyArray<readonly [pattern: RegExp, value: (environment: NodeJS.ProcessEnv) => string]> = [
  [/^core\.sshcommand$/, (environment) => (environment.GIT_SSH ? shellQuoted(environment.GIT_SSH) : 'ssh')],
  [/^core\.askpass$/, () => ''],
  [/^diff\.external$/, () => ''],
  [/^diff\..+\.command$/, () => ''],
  [/^diff\..+\.textconv$/, () => 'cat'],
  [/^filter\..+\.(?:clean|smudge)$/, () => 'cat'],
  [/^filter\..+\.process$/, () => ''],
  [/^gpg\.program$/, () => 'gpg'],
  [/^gpg\.openpgp\.program$/, () => 'gpg'],
  [/^gpg\.x509\.program$/, () => 'gpgsm'],
  [/^gpg\.ssh\.program$/, () => 'ssh-keygen'],
  [/^gpg\.ssh\.defaultkeycommand$/, () => ''],
  [/^commit\.gpgsign$/, () => 'false'],
  [/^tag\.gpgsign$/, () => 'false'],
];

/** Multi-valued: a list git resets at an empty value. */
const credentialHelper = /^credential\.(?:.+\.)?helper$/;

/** The section names `git config --get-regexp` is asked about (git-config-listing.ts). */
export const neutralisedSections = ['core', 'diff', 'filter', 'gpg', 'commit', 'tag', 'remote', 'credential'] as const;

/** The neutral settings for a repository whose configuration lists as `entries` (in git's reading order). */
export function neutralGitConfig(
  entries: readonly GitConfigEntry[],
  environment: NodeJS.ProcessEnv,
  options: { readsEnvironment?: boolean } = {},
): NeutralGitConfig {
  const readsEnvironment = options.readsEnvironment ?? true;
  const pairs: ConfigPair[] = [...alwaysNeutralPairs];
  // The user's own values put back: only in the environment, private to the user (a command line is
  // public, in every process listing), since a credential helper's line can hold a token.
  const userPairs: ConfigPair[] = [];
  const lastByKey = new Map<string, GitConfigEntry>();
  const userValue = new Map<string, string>();
  for (const entry of entries) {
    lastByKey.set(entry.key, entry);
    if (userScopes.has(entry.scope)) userValue.set(entry.key, entry.value);
  }
  const neutralisedFilters = new Set<string>();
  for (const [key, entry] of lastByKey) {
    if (userScopes.has(entry.scope)) continue;
    const reset = resetValues.find(([pattern]) => pattern.test(key));
    if (!reset) continue;
    const own = userValue.get(key);
    if (own === undefined) pairs.push([checkedKey(entry), reset[1](environment)]);
    else userPairs.push([checkedKey(entry), own]);
    const filter = /^filter\.(.+)\.(?:clean|smudge|process)$/.exec(key);
    if (filter?.[1] !== undefined) neutralisedFilters.add(filter[1]);
  }
  // A pass-through filter cannot fail; `required` would still refuse an emptied `process`.
  for (const name of neutralisedFilters) pairs.push([`filter.${name}.required`, 'false']);
  const helpers = entries.filter((entry) => credentialHelper.test(entry.key));
  if (helpers.some((entry) => !userScopes.has(entry.scope))) {
    // Emptied, then the user's own helpers again in their order: the repository's are gone, theirs kept.
    // A git that reads no GIT_CONFIG_COUNT gets the emptying alone, on its command line.
    (readsEnvironment ? userPairs : pairs).push(['credential.helper', '']);
    if (readsEnvironment) for (const entry of helpers) if (userScopes.has(entry.scope)) userPairs.push([checkedKey(entry), entry.value]);
  }
  const signing = userValue.get('commit.gpgsign');
  const onCommandLine = readsEnvironment ? pairs : [...pairs, ...userPairs];
  return {
    arguments: onCommandLine.flatMap(([key, value]) => ['-c', `${key}=${value}`]),
    environment: pairsAsEnvironment([...pairs, ...userPairs], environment),
    signCommits: signing !== undefined && /^(?:true|yes|on|1)$/i.test(signing),
    readsEnvironment,
  };
}

/** A key as `-c` can carry it: `-c` splits at the first `=`, so a subsection holding one cannot be reset. */
function checkedKey(entry: GitConfigEntry): string {
  if (entry.key.includes('=') || entry.key.includes('\n')) throw new UnneutralisableGitConfigError(entry.key, entry.origin);
  return entry.key;
}

function shellQuoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `pairs` as the variables git reads (before any `-c`), after the user's own `GIT_CONFIG_COUNT` ones. */
export function pairsAsEnvironment(pairs: readonly ConfigPair[], environment: NodeJS.ProcessEnv): Record<string, string> {
  const existing = Number.parseInt(environment.GIT_CONFIG_COUNT ?? '0', 10);
  const first = Number.isSafeInteger(existing) && existing > 0 ? existing : 0;
  const variables: Record<string, string> = { GIT_CONFIG_COUNT: String(first + pairs.length) };
  pairs.forEach(([key, value], index) => {
    variables[`GIT_CONFIG_KEY_${first + index}`] = key;
    variables[`GIT_CONFIG_VALUE_${first + index}`] = value;
  });
  return variables;
}
