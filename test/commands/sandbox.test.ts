/**
 * The boundary around a command, tried from inside one as a hijacked agent would: through the `Bash`
 * tool, with real processes in the real sandbox (bubblewrap, installed by scripts/setup-sandbox.sh). What
 * it must not reach: the user's home, the real workspace, the engine's own process and environment, the
 * network unless allowed; what it must not leave: any process; what it must not take: unlimited CPU or
 * disk. And a machine without a sandbox: every command asks, and "Always" is not offered.
 */
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CommandApprovalRequest } from '../../src/engine/commands/command-host.js';
import { detectSandbox } from '../../src/engine/commands/sandbox/sandbox-availability.js';
import { type BashWorld, copyKinds, createBashWorld, runAsReviewer, processesMarked } from './bash-support.js';

let world: BashWorld | undefined;
let userHome: string | undefined;

afterEach(async () => {
  await world?.dispose();
  world = undefined;
  if (userHome) await rm(userHome, { recursive: true, force: true });
  userHome = undefined;
});

/** Runs one command as the reviewer (bash-support.ts). */
const run = (command: string): Promise<string> => runAsReviewer(world!, command);

beforeAll(async () => {
  // The project's setup installs bubblewrap; a machine where it cannot start fails here, plainly.
  expect(await detectSandbox()).toMatchObject({ available: true, mechanism: 'bubblewrap' });
});

describe.each(copyKinds)('with the %s scratch copy', (copyKind) => {
  describe.skipIf(process.platform !== 'linux')('a command in the sandbox', () => {
    it("cannot read the user's home: ~/.ssh is not there, and HOME is a private, empty folder", async () => {
      userHome = await mkdtemp(path.join(tmpdir(), 'agent-team-home-'));
      await mkdir(path.join(userHome, '.ssh'));
      await writeFile(path.join(userHome, '.ssh', 'id_rsa'), 'PRIVATE KEY 1234\n');
      world = await createBashWorld({ copyKind, files: { 'a.txt': 'a\n' }, patterns: ['*'], userHome });
      const result = await run(`cat ${userHome}/.ssh/id_rsa; ls -A ~; echo "home=$HOME"`);
      expect(result).not.toContain('PRIVATE KEY');
      expect(result).toContain('No such file or directory');
      expect(result).toContain('home=/tmp/home');
    });

    it("cannot see the engine's process or its environment in /proc", async () => {
      world = await createBashWorld({
        copyKind,
        files: { 'a.txt': 'a\n' },
        patterns: ['*'],
        sourceEnvironment: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-canary-0123456789' },
      });
      const result = await run(
        `ls /proc/${process.pid} 2>&1 | head -1; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c ANTHROPIC_API_KEY; echo "pid=$$"`,
      );
      expect(result).toContain('No such file or directory');
      expect(result).not.toContain('sk-ant-canary');
      expect(result).toMatch(/^0$/m);
      // Its own PID namespace: the shell is one of the first processes there.
      expect(result).toMatch(/pid=[2-9]\b/);
    });

    it('cannot write the real workspace by absolute path, nor read its ignored files', async () => {
      world = await createBashWorld({ copyKind, files: { 'a.txt': 'original\n', '.gitignore': '.env\n' }, patterns: ['*'] });
      await writeFile(path.join(world.root, '.env'), 'DATABASE_URL=postgres://user:hunter2@db/x\n');
      const result = await run(`echo hijacked > ${world.root}/a.txt; cat ${world.root}/.env; cat a.txt`);
      expect(await readFile(path.join(world.root, 'a.txt'), 'utf8')).toBe('original\n');
      expect(result).not.toContain('hunter2');
      // The copy itself is there to work on.
      expect(result).toContain('original');
    });

    it('reaches no network unless allowed; allowed, it does', async () => {
      const server = await listening();
      try {
        const port = (server.address() as { port: number }).port;
        const probe = `node -e "require('http').get('http://127.0.0.1:${port}/', (r) => console.log('status ' + r.statusCode)).on('error', (e) => console.log('error ' + e.code))"`;
        world = await createBashWorld({ copyKind, files: { 'a.txt': 'a\n' }, patterns: ['*'] });
        expect(await run(probe)).toMatch(/error (ECONNREFUSED|ENETUNREACH|EAI_AGAIN)/);
        await world.dispose();
        world = await createBashWorld({ copyKind, files: { 'a.txt': 'a\n' }, patterns: ['*'], networkForAll: true });
        expect(await run(probe)).toContain('status 200');
      } finally {
        server.close();
      }
    });

    it.each([
      ['setsid -f', (mark: string) => `setsid -f bash -c 'sleep 1000; :' "${mark}"`],
      ['a double fork', (mark: string) => `(bash -c 'sleep 1000; :' "${mark}" &)`],
      ['nohup … &', (mark: string) => `nohup bash -c 'sleep 1000; :' "${mark}" >/dev/null 2>&1 &`],
    ])('leaves no process behind that escaped with %s', async (_name, start) => {
      for (const sandbox of ['auto', 'off'] as const) {
        world = await createBashWorld({ copyKind, files: { 'a.txt': 'a\n' }, patterns: ['*'], sandbox });
        const id = `${process.pid}-${Date.now()}-${sandbox}`;
        // Put together by the shell: only the escaped process carries the whole mark. The command itself
        // sees it running before it ends (the bracket keeps grep from finding its own arguments).
        const seen =
          'for i in $(seq 1 500); do grep -l -a -- "agent-team-escape-[${b:0:1}]${b:1}" /proc/[0-9]*/cmdline 2>/dev/null | grep -q . && { echo escaped-running; break; }; done';
        const result = await run(`a=agent-team-escape-; b=${id}; ${start('$a$b')}; ${seen}`);
        expect(result).toContain('escaped-running');
        expect(processesMarked(`agent-team-escape-${id}`)).toEqual([]);
        await world.dispose();
        world = undefined;
      }
    });

    it('hits its CPU-time limit and file-size limit with a clear result', async () => {
      world = await createBashWorld({
        copyKind,
        files: { 'a.txt': 'a\n' },
        patterns: ['*'],
        limits: { cpuSeconds: 1, fileBytes: 1024 * 1024, processes: 4096 },
      });
      expect(await run('while :; do :; done')).toContain('The command hit its CPU-time limit (1 s of CPU)');
      expect(await run('head -c 3000000 /dev/zero > big.bin')).toContain('The command hit its file-size limit (1 MiB for one file)');
    });
  });

  describe('a machine without a sandbox', () => {
    const unavailable = async () => ({ available: false as const, reason: 'namespaces are not allowed here' });

    it('refuses even an allowed command where nobody can be asked, and says how to run without one', async () => {
      world = await createBashWorld({ copyKind, files: { 'a.txt': 'a\n' }, patterns: ['*'], detectSandbox: unavailable });
      const result = await run('cat a.txt');
      expect(result).toContain('Not run: there is no OS sandbox here (namespaces are not allowed here)');
    });

    it('asks about every command, saying it is not sandboxed, and offers no "Always"', async () => {
      const requests: CommandApprovalRequest[] = [];
      world = await createBashWorld({
        copyKind,
        files: { 'a.txt': 'hello\n' },
        patterns: ['cat a.txt'],
        detectSandbox: unavailable,
        approval: { request: async (request) => (requests.push(request), 'allow') },
      });
      expect(await run('cat a.txt')).toContain('hello');
      expect(requests).toHaveLength(1);
      expect(requests[0].isolation).toMatchObject({ kind: 'unavailable', offerAlways: false, network: true });
      expect(requests[0].isolation.summary).toContain('NOT in a sandbox (namespaces are not allowed here)');
    });

    it('in the sandbox, the approval says so and whether the command gets the network', async () => {
      const requests: CommandApprovalRequest[] = [];
      world = await createBashWorld({
        copyKind,
        files: { 'a.txt': 'hello\n' },
        patterns: [],
        approval: { request: async (request) => (requests.push(request), 'allow') },
      });
      await run('cat a.txt');
      expect(requests[0].isolation).toMatchObject({ kind: 'sandbox', offerAlways: true, network: false });
      expect(requests[0].isolation.summary).toContain('without network');
    });
  });

  function listening(): Promise<Server> {
    return new Promise((resolve) => {
      const server = createServer((_request, response) => response.end('ok'));
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
  }
});
