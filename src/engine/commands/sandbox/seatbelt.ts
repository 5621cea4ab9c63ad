/**
 * The policy as a Seatbelt profile for macOS's `sandbox-exec -p` (the mechanism Claude Code and Codex use
 * there). Everything is denied, then allowed back: processes and signals within the sandbox, reading the
 * system except the hidden folders (with the read-back ones allowed again), writing only the scratch copy,
 * the private temporary folder and the null device, and the network only when the policy allows it.
 * Written from the same policy as the Linux sandbox and unit-tested as text; it cannot run on Linux.
 */
import type { SandboxPolicy } from './sandbox-policy.js';

export function seatbeltProfile(policy: SandboxPolicy, temporaryFolder: string): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-fork)',
    '(allow process-exec)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))',
    '(allow user-preference-read)',
    `(allow file-read* (require-all (subpath "/")${policy.hidden.map((folder) => ` (require-not (subpath ${quoted(folder)}))`).join('')}${(policy.hiddenFiles ?? []).map((file) => ` (require-not (literal ${quoted(file)}))`).join('')}))`,
  ];
  if (policy.readOnly.length > 0)
    lines.push(`(allow file-read* ${policy.readOnly.map((folder) => `(subpath ${quoted(folder)})`).join(' ')})`);
  // The last rule that matches wins: a credential file inside a folder read back stays denied.
  if ((policy.hiddenFiles ?? []).length > 0)
    lines.push(`(deny file-read* ${(policy.hiddenFiles ?? []).map((file) => `(literal ${quoted(file)})`).join(' ')})`);
  const writable = [...policy.writable, temporaryFolder];
  lines.push(`(allow file-read* file-write* ${writable.map((folder) => `(subpath ${quoted(folder)})`).join(' ')})`);
  lines.push('(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty"))');
  lines.push(policy.network ? '(allow network*)' : '(deny network*)');
  return `${lines.join('\n')}\n`;
}

/** A string literal of the profile language: backslashes and quotes escaped, no control characters. */
function quoted(text: string): string {
  if ([...text].some((character) => character.charCodeAt(0) < 0x20))
    throw new Error(`A sandbox path with a control character cannot be written into a profile: ${JSON.stringify(text)}`);
  return `"${text.replace(/[\\"]/g, (character) => `\\${character}`)}"`;
}
