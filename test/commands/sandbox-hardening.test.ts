/**
 * What a command may do inside the sandbox, read from inside it with real processes in the real sandbox,
 * on both kinds of scratch copy: no capability and (as root) not root, no user namespace to get them back,
 * no remount; hard limits that are really set (the kernel's own view, /proc/self/limits); a private /tmp
 * that fills up instead of the host's memory.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/engine/commands/sandbox/sandbox-availability.js';
import { type BashWorld, copyKinds, createBashWorld, runAsReviewer } from './bash-support.js';

let world: BashWorld | undefined;
const asRoot = process.getuid?.() === 0;

afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

/** Runs one command as the reviewer (bash-support.ts). */
const run = (command: string): Promise<string> => runAsReviewer(world!, command);

beforeAll(async () => {
  expect(await detectSandbox()).toMatchObject({ available: true, mechanism: 'bubblewrap' });
});

describe.skipIf(process.platform !== 'linux' || !asRoot)(
  "as root, a workspace that belongs to another user (a host's checkout in a container)",
  () => {
    it('gets the git-made copy, whose files the command can write without a capability', async () => {
      world = await createBashWorld({ files: { 'a.txt': 'a\n', 'dist/x.txt': 'x\n' }, patterns: ['*'] });
      execFileSync('chown', ['-R', '4242:4242', world.root]);
      const result = await run('echo b >> a.txt && echo y > dist/y.txt && echo new > new.txt && cat a.txt');
      expect(result).toContain('Exit code 0');
      expect(result).toMatch(/^a\nb$/m);
      expect(result).toContain('Ran in: a git-made copy of the workspace (no overlay: the workspace belongs to another user (uid 4242)');
    });
  },
);

describe.skipIf(process.platform !== 'linux').each(copyKinds)('a command in the sandbox, with the %s scratch copy', (copyKind) => {
  it('holds no capability, is not root, cannot remount / nor make a user namespace of its own', async () => {
    world = await createBashWorld({ copyKind, files: { 'a.txt': 'a\n' }, patterns: ['*'] });
    const marker = `/etc/agent-team-escape-${process.pid}-${copyKind}`;
    const result = await run(
      `grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status; echo "uid=$(id -u)"; mount -o remount,rw / 2>&1; echo "remount=$?"; echo x > ${marker} 2>&1; unshare --user --map-root-user true 2>&1; echo "userns=$?"; echo y > a.txt && cat a.txt`,
    );
    expect(result).toMatch(/^CapEff:\s+0000000000000000$/m);
    expect(result).toMatch(/^CapPrm:\s+0000000000000000$/m);
    expect(result).toMatch(/^CapBnd:\s+0000000000000000$/m);
    expect(result).not.toMatch(/^uid=0$/m);
    if (asRoot) expect(result).toMatch(/^uid=65534$/m);
    expect(result).toMatch(/^remount=(?!0$)\d+$/m);
    expect(result).toMatch(/^userns=(?!0$)\d+$/m);
    await expect(readFile(marker, 'utf8')).rejects.toThrow();
    await rm(marker, { force: true });
    // Its own copy stays writable (root's files, as the namespace maps it).
    expect(result).toMatch(/^y$/m);
  });

  it.skipIf(!asRoot)("as root, reads neither what only root may read nor root's home", async () => {
    // HOME elsewhere: /root is hidden because the user inside is root's owner, not because it is the home.
    const home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
    world = await createBashWorld({ copyKind, files: { 'a.txt': 'a\n' }, patterns: ['*'], userHome: home });
    const result = await run(`cat /etc/shadow 2>&1; ls /etc/ssl/private 2>&1 | wc -l; ls -A /root`).finally(() =>
      rm(home, { recursive: true, force: true }),
    );
    expect(result).not.toMatch(/^root:/m);
    expect(result).toMatch(/^0$/m);
    // Root's home is an empty folder; what is there are only the mount points of toolchains read back.
    expect(result).not.toMatch(/^\.(?:bashrc|profile|gitconfig|npmrc|ssh)$/m);
  });

  it("reads a toolchain in the user's home back, but not the registry token cargo keeps there", async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
    try {
      await mkdir(path.join(home, '.cargo', 'bin'), { recursive: true });
      await writeFile(path.join(home, '.cargo', 'credentials.toml'), '[registry]\ntoken = "cio-canary-token"\n');
      await writeFile(path.join(home, '.cargo', 'bin', 'cargo-hello'), '#!/bin/sh\necho hello from cargo\n', { mode: 0o755 });
      const environment = { PATH: `${path.join(home, '.cargo', 'bin')}:${process.env.PATH ?? ''}`, CARGO_HOME: path.join(home, '.cargo') };
      world = await createBashWorld({
        copyKind,
        files: { 'a.txt': 'a\n' },
        patterns: ['*'],
        userHome: home,
        sourceEnvironment: environment,
      });
      const result = await run('cargo-hello; cat "$CARGO_HOME/credentials.toml"; echo "size=$(wc -c < "$CARGO_HOME/credentials.toml")"');
      expect(result).toContain('hello from cargo');
      expect(result).not.toContain('cio-canary-token');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('runs git, node and npm as usual (no user namespace of its own does not get in their way)', async () => {
    world = await createBashWorld({
      copyKind,
      files: { 'a.txt': 'a\n', 'package.json': '{"name":"p","version":"1.0.0","scripts":{"hello":"node -e \\"console.log(42)\\""}}' },
      patterns: ['*'],
    });
    const result = await run(
      `git status --short && echo b >> a.txt && git diff --stat | tail -1 && node -e "console.log('node ' + (6 * 7))" && npm run --silent hello`,
    );
    expect(result).toContain('Exit code 0');
    expect(result).toContain('1 file changed, 1 insertion(+)');
    expect(result).toMatch(/^node 42$/m);
    expect(result).toMatch(/^42$/m);
  });

  it('runs under hard CPU, file-size, process and address-space limits, as the kernel reports them', async () => {
    world = await createBashWorld({
      copyKind,
      files: { 'a.txt': 'a\n' },
      patterns: ['*'],
      limits: { cpuSeconds: 30, fileBytes: 8 * 1024 ** 2, processes: 500, addressSpaceBytes: 40 * 1024 ** 3 },
    });
    const result = await run(
      `echo "soft=$(ulimit -S -t) hard=$(ulimit -H -t)"; grep -E '^Max (cpu time|file size|processes|address space)' /proc/self/limits`,
    );
    expect(result).toContain('soft=30 hard=31');
    expect(result).toMatch(/^Max cpu time\s+30\s+31\s+seconds\s*$/m);
    expect(result).toMatch(/^Max file size\s+8388608\s+8388608\s+bytes\s*$/m);
    expect(result).toMatch(/^Max processes\s+500\s+500\s+processes\s*$/m);
    expect(result).toMatch(/^Max address space\s+42949672960\s+42949672960\s+bytes\s*$/m);
  });

  it('runs Node and WebAssembly under the default address-space limit', async () => {
    world = await createBashWorld({ copyKind, files: { 'a.txt': 'a\n' }, patterns: ['*'] });
    const result = await run(
      `node -e "const memories = [1, 2, 3].map(() => new WebAssembly.Memory({ initial: 1 })); WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => console.log('wasm ok ' + memories.length))"`,
    );
    expect(result).toContain('wasm ok 3');
  });

  it('is told when it hit the address-space limit', async () => {
    world = await createBashWorld({
      copyKind,
      files: { 'a.txt': 'a\n' },
      patterns: ['*'],
      limits: { cpuSeconds: 60, fileBytes: 1024 ** 3, processes: 4096, addressSpaceBytes: 4 * 1024 ** 3 },
    });
    const result = await run(`node -e "new WebAssembly.Memory({ initial: 1 })"`);
    expect(result).toContain('could not allocate memory');
    expect(result).toContain('probably hit its address-space limit (4 GiB');
  });

  it('has a private /tmp that fills up at its size, and is told so', async () => {
    world = await createBashWorld({
      copyKind,
      files: { 'a.txt': 'a\n' },
      patterns: ['*'],
      limits: { cpuSeconds: 60, fileBytes: 1024 ** 3, processes: 4096, temporaryBytes: 4 * 1024 ** 2 },
    });
    const result = await run(`df -k /tmp | tail -1; head -c 8388608 /dev/zero > /tmp/filler; status=$?; du -k /tmp/filler; exit $status`);
    expect(result).toMatch(/^tmpfs\s+4096\s/m);
    expect(result).toContain('No space left on device');
    expect(result).toContain('Exit code 1');
    expect(result).toMatch(/^409[0-9]\s+\/tmp\/filler$/m);
    expect(result).toContain('Exit code 1: the command probably ran out of space in its private /tmp, which holds 4 MiB');
  });
});
