/**
 * What only root may read on a Linux system and no sandboxed process needs: the password hashes and the
 * host's private keys. As root, a command's user inside the sandbox is root outside (the user namespace
 * maps it so, to keep the scratch copy writable): without capabilities, but still the owner of root's
 * files, which their owner may read. These are hidden from it (bubblewrap.ts); root's home is too
 * (command-launch.ts). Other files that only root may read are not: the sandbox hides the home, the
 * workspace, /run and these, and reads the rest of the system read-only, as it does for any user.
 */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

const secretFiles = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/security/opasswd'];
const secretFolders = ['/etc/ssl/private'];
const hostKeys = { folder: '/etc/ssh', name: /^ssh_host_.*_key$/ };

/** Those of them that exist here, as files and folders (synchronous: a handful of lstat calls per launch). */
export function rootOnlySecrets(): { files: string[]; folders: string[] } {
  const keys = entriesOf(hostKeys.folder)
    .filter((name) => hostKeys.name.test(name))
    .map((name) => path.join(hostKeys.folder, name));
  return {
    files: [...secretFiles, ...keys].filter((file) => kindOf(file) === 'file'),
    folders: secretFolders.filter((folder) => kindOf(folder) === 'folder'),
  };
}

function kindOf(entry: string): 'file' | 'folder' | undefined {
  try {
    const info = lstatSync(entry, { throwIfNoEntry: false });
    return info?.isDirectory() ? 'folder' : info?.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

function entriesOf(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
