/** The sandbox policy and its renderings as text: bubblewrap's mount order, Seatbelt's rules. */
import { describe, expect, it } from 'vitest';
import { bubblewrapArguments } from '../../src/engine/commands/sandbox/bubblewrap.js';
import { commandPolicy } from '../../src/engine/commands/sandbox/sandbox-policy.js';
import { toolchainFolders } from '../../src/engine/commands/sandbox/toolchain-folders.js';
import { seatbeltProfile } from '../../src/engine/commands/sandbox/seatbelt.js';
import { limitHit } from '../../src/engine/commands/sandbox/resource-limits.js';

const policy = commandPolicy({
  copy: { writable: ['/tmp/agent-team-scratch-1/42-x'], readOnly: ['/home/ada/project/node_modules', '/home/ada/project/.git/objects'] },
  cwd: '/tmp/agent-team-scratch-1/42-x/work',
  workspaceRoot: '/home/ada/project',
  userHome: '/home/ada',
  environment: { PATH: '/home/ada/.nvm/versions/node/v22/bin:/usr/bin:/home/ada/.ssh/bin', CARGO_HOME: '/home/ada/.cargo' },
  network: false,
});

describe('the sandbox policy', () => {
  it("hides the user's home, the workspace and /run; reads back dependencies, git objects and toolchains, never credentials", () => {
    expect(policy.hidden).toEqual(['/home/ada', '/home/ada/project', '/run', '/var/run', '/var/tmp']);
    expect(policy.readOnly).toEqual([
      '/home/ada/project/node_modules',
      '/home/ada/project/.git/objects',
      '/home/ada/.nvm/versions/node/v22',
      '/home/ada/.cargo',
    ]);
    expect(toolchainFolders({ PATH: '/home/ada/bin:/home/ada/.ssh' }, ['/home/ada'], '/home/ada')).toEqual([]);
    // Nothing that is, holds or lies in the hidden workspace comes back (direnv's PATH_add bin, ~/code/bin).
    expect(
      toolchainFolders(
        { PATH: '/home/ada/code/bin:/home/ada/code/proj/tools:/home/ada/code/proj/bin' },
        ['/home/ada', '/home/ada/code/proj'],
        '/home/ada',
        '/home/ada/code/proj',
      ),
    ).toEqual([]);
    // ~/.local/bin comes back alone: ~/.local also holds histories and keyrings.
    expect(toolchainFolders({ PATH: '/home/ada/.local/bin' }, ['/home/ada'], '/home/ada')).toEqual(['/home/ada/.local/bin']);
  });

  it('as bubblewrap arguments: read-only system, fresh /dev, /proc and /tmp, hidden folders, then binds parents first', () => {
    const args = bubblewrapArguments(policy, ['/bin/bash', '-c', 'npm test'], { hostUid: 1000, temporaryBytes: 2 * 1024 ** 2 });
    expect(args.slice(0, 7)).toEqual([
      '--die-with-parent',
      '--new-session',
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--cap-drop',
      'ALL',
    ]);
    expect(args).not.toContain('--share-net');
    expect(args).not.toContain('--uid');
    const text = args.join(' ');
    // The private /tmp bounded as asked; the empty folders over hidden ones bounded small.
    expect(text).toContain(
      '--ro-bind / / --dev /dev --proc /proc --size 2097152 --tmpfs /tmp --size 1048576 --tmpfs /run --size 1048576 --tmpfs /home/ada --size 1048576 --tmpfs /var/run --size 1048576 --tmpfs /var/tmp --size 1048576 --tmpfs /home/ada/project',
    );
    expect(text.indexOf('--tmpfs /home/ada/project')).toBeLessThan(text.indexOf('--ro-bind /home/ada/project/node_modules'));
    expect(text).toContain('--bind /tmp/agent-team-scratch-1/42-x /tmp/agent-team-scratch-1/42-x');
    expect(args.slice(-6)).toEqual(['--chdir', '/tmp/agent-team-scratch-1/42-x/work', '--', '/bin/bash', '-c', 'npm test']);
    expect(bubblewrapArguments({ ...policy, network: true }, ['true'])).toContain('--share-net');
    expect(bubblewrapArguments(policy, ['true'], { hostUid: 1000 }).join(' ')).toContain('--size 1073741824 --tmpfs /tmp');
  });

  it('as bubblewrap arguments for root: a user that is not root inside, no capabilities, no user namespace of its own', () => {
    const text = bubblewrapArguments(policy, ['true'], {
      hostUid: 0,
      rootSecrets: { files: ['/etc/shadow'], folders: ['/etc/ssl/private'] },
    }).join(' ');
    expect(text).toContain('--unshare-all --unshare-user --disable-userns --cap-drop ALL --uid 65534 --gid 65534 --ro-bind / /');
    // The user inside owns root's files: what only root may read is hidden.
    expect(text).toContain('--size 1048576 --tmpfs /etc/ssl/private');
    expect(text).toContain('--ro-bind /dev/null /etc/shadow');
    expect(bubblewrapArguments(policy, ['true'], { hostUid: 1000, rootSecrets: { files: ['/etc/shadow'], folders: [] } })).not.toContain(
      '/etc/shadow',
    );
  });

  it('as a Seatbelt profile: deny by default, reads except the hidden folders, writes to the copy only, no network', () => {
    const profile = seatbeltProfile(policy, '/tmp/agent-team-scratch-1/42-x/tmp');
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).toContain(
      '(allow file-read* (require-all (subpath "/") (require-not (subpath "/home/ada")) (require-not (subpath "/home/ada/project"))',
    );
    expect(profile).toContain('(allow file-read* (subpath "/home/ada/project/node_modules")');
    expect(profile).toContain(
      '(allow file-read* file-write* (subpath "/tmp/agent-team-scratch-1/42-x") (subpath "/tmp/agent-team-scratch-1/42-x/tmp"))',
    );
    expect(profile).toContain('(deny network*)');
    expect(seatbeltProfile({ ...policy, network: true }, '/t')).toContain('(allow network*)');
    expect(seatbeltProfile({ ...policy, writable: ['/a"b\\c'] }, '/t')).toContain('(subpath "/a\\"b\\\\c")');
    expect(() => seatbeltProfile({ ...policy, writable: ['/a\nb'] }, '/t')).toThrow(/control character/);
  });
});

describe('a limit that was hit', () => {
  const limits = { cpuSeconds: 1, fileBytes: 1024 * 1024, processes: 64 };
  it('is named from the signal, the shell status or the failed fork', () => {
    expect(limitHit({ exitCode: null, signal: 'SIGXCPU' }, limits)).toContain('CPU-time limit (1 s of CPU)');
    expect(limitHit({ exitCode: 153, signal: null }, limits)).toContain('file-size limit (1 MiB for one file)');
    expect(
      limitHit({ exitCode: 254, signal: null, stderr: { text: 'bash: fork: retry: Resource temporarily unavailable\n' } }, limits),
    ).toContain('process limit (64 processes');
    expect(limitHit({ exitCode: 1, signal: null, stderr: { text: 'tests failed' } }, limits)).toBeUndefined();
    // The address space and the private /tmp have no signal: the program's own words say it.
    const bounded = { ...limits, addressSpaceBytes: 2 * 1024 ** 3, temporaryBytes: 8 * 1024 ** 2 };
    expect(
      limitHit(
        {
          exitCode: 134,
          signal: null,
          stderr: { text: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory' },
        },
        bounded,
      ),
    ).toContain('address-space limit (2 GiB');
    expect(
      limitHit({ exitCode: 1, signal: null, stderr: { text: 'RangeError: WebAssembly.Memory(): could not allocate memory' } }, bounded),
    ).toContain('address-space limit');
    expect(
      limitHit({ exitCode: 1, signal: null, stderr: { text: "head: error writing '/tmp/x': No space left on device" } }, bounded),
    ).toContain('Exit code 1: the command probably ran out of space in its private /tmp, which holds 8 MiB');
    expect(limitHit({ exitCode: 0, signal: null, stderr: { text: 'out of memory (handled)' } }, bounded)).toBeUndefined();
  });
});
