/**
 * Credentials some toolchains keep in files inside their own folder: a folder read back into the sandbox
 * because `PATH` points into it (`~/.cargo` for `~/.cargo/bin`) must not bring them along. Cargo's registry
 * tokens are in `~/.cargo/credentials.toml` (`credentials` before 1.39); RubyGems' in `~/.gem/credentials`;
 * Dart's in `~/.pub-cache/credentials.json`; npm's global configuration, which may hold an `_authToken`, in
 * `<prefix>/etc/npmrc` (an nvm or Volta node's own folder); conda's channel tokens in a `.condarc`; Maven's
 * and Gradle's passwords in `settings.xml`, `settings-security.xml` and `gradle.properties`. Each is
 * replaced by an empty file, the folder otherwise readable.
 *
 * Not hidden: `~/.cargo/config.toml`, which may hold a `[registry] token` too but also the settings a build
 * needs (a linker, source replacement): a token there is readable by what runs with `~/.cargo/bin` on PATH.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Paths, relative to a read-back folder, of files that hold credentials. */
export const toolchainCredentialFiles = [
  'credentials.toml',
  'credentials',
  'credentials.json',
  'etc/npmrc',
  '.npmrc',
  '.condarc',
  '.netrc',
  '.pypirc',
  '.git-credentials',
  'settings.xml',
  'settings-security.xml',
  'gradle.properties',
];

/**
 * The real paths of the credential files inside `folders` (regular files only, once each). Read
 * synchronously, like the rest of the policy (a dozen `lstat`s a folder, far under a millisecond: most
 * names are not there, and are asked about without an exception, see realFileOf).
 */
export function credentialFilesIn(folders: readonly string[]): string[] {
  const found = new Set<string>();
  for (const folder of folders) {
    for (const name of toolchainCredentialFiles) {
      // Resolved: a link to a file elsewhere is hidden where the mount lands, at its target.
      const real = realFileOf(path.join(folder, name));
      if (real !== undefined) found.add(real);
    }
  }
  return [...found];
}

/** The real path of `file` when it leads to a regular file, else undefined. */
function realFileOf(file: string): string | undefined {
  try {
    // Most of these names are not there: asked without an exception first (sandbox-policy.ts, realPathOf).
    if (lstatSync(file, { throwIfNoEntry: false }) === undefined) return undefined;
    const real = realpathSync.native(file);
    return lstatSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}
