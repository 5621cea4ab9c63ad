/**
 * Reads the settings neutral-git-config.ts judges, with where each comes from, by one
 * `git config --show-scope --show-origin --null --get-regexp` (reading configuration runs nothing).
 */
import {
  type GitConfigEntry,
  neutralGitConfig,
  type NeutralGitConfig,
  neutralisedSections,
  pairsAsEnvironment,
} from './neutral-git-config.js';

/** What the reader needs from a git runner: run git with these arguments (and variables) where the repository is. */
export type GitConfigRun = (
  args: readonly string[],
  extraEnvironment: Record<string, string>,
) => Promise<{ exitCode: number | null; stdout: string; stderr: string }>;

const pattern = `^(${neutralisedSections.join('|')})\\.`;

/** Listed back only by a git that reads `GIT_CONFIG_COUNT` (2.31 and later). */
const probeKey = 'core.agentteamprobe';

/** The neutral settings for the repository `run` runs git in (or none, outside one: the user's only). */
export async function readNeutralGitConfig(run: GitConfigRun, environment: NodeJS.ProcessEnv): Promise<NeutralGitConfig> {
  const probe = pairsAsEnvironment([[probeKey, '1']], environment);
  const judged = (entries: GitConfigEntry[]) =>
    neutralGitConfig(
      entries.filter((entry) => entry.key !== probeKey),
      environment,
      { readsEnvironment: entries.some((entry) => entry.key === probeKey) },
    );
  const scoped = await run(['config', '--show-scope', '--show-origin', '--null', '--get-regexp', pattern], probe);
  // 1: nothing matched. 129: a git older than 2.26, without --show-scope: every entry is then treated as
  // the repository's (its own programs reset, the user's too), which is safe and only less convenient.
  if (scoped.exitCode === 0 || scoped.exitCode === 1) return judged(parseGitConfigListing(scoped.stdout, true));
  if (scoped.exitCode === 129) {
    const plain = await run(['config', '--null', '--get-regexp', pattern], probe);
    if (plain.exitCode === 0 || plain.exitCode === 1) return judged(parseGitConfigListing(plain.stdout, false));
  }
  // Unreadable configuration: every later git call would fail on it too; nothing runs before it is fixed.
  throw new Error(
    `git could not read the repository's configuration to switch off what it would run: ${scoped.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 400) || `exit ${scoped.exitCode ?? 'unknown'}`}`,
  );
}

/** Records of `--null` output: `[scope NUL] [origin NUL] key LF value NUL` (no LF: a key without value). */
export function parseGitConfigListing(stdout: string, withScopeAndOrigin: boolean): GitConfigEntry[] {
  const fields = stdout.split('\0');
  const entries: GitConfigEntry[] = [];
  const width = withScopeAndOrigin ? 3 : 1;
  for (let index = 0; index + width - 1 < fields.length; index += width) {
    const record = fields[index + width - 1]!;
    if (record === '' && index + width >= fields.length) break;
    const newline = record.indexOf('\n');
    entries.push({
      key: newline < 0 ? record : record.slice(0, newline),
      value: newline < 0 ? 'true' : record.slice(newline + 1),
      scope: withScopeAndOrigin ? fields[index]! : 'unknown',
      origin: withScopeAndOrigin ? fields[index + 1]! : '',
    });
  }
  return entries;
}
