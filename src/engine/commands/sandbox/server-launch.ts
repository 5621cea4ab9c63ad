/**
 * How an MCP server a role file (or the workspace's configuration) names is started in the OS sandbox:
 * as a command is, in a scratch copy of its task's tree (server-policy.ts says what it sees), for the
 * task's whole life. The copy is acquired and brought to the task's view when the server starts (the
 * proposals made earlier in the tree are there), held while the server runs, so no command's copy is
 * swapped under it, and given back once it has exited. What it writes stays in the copy and is never read
 * back: its edits must go through the agents' proposals and the user's review.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../errors.js';
import type { ProposedFile } from '../../file-tools/task-tools.js';
import type { CommandHost } from '../command-host.js';
import { bubblewrapArguments } from './bubblewrap.js';
import { serverNetwork } from './server-network.js';
import { realPathOf } from './sandbox-policy.js';
import { serverPolicy } from './server-policy.js';
import { seatbeltProfile } from './seatbelt.js';

/** A stdio server as its configuration starts it. */
export interface ServerProgram {
  command: string;
  args: readonly string[];
  /** What it gets: a command's environment plus its own `env`. */
  environment: Record<string, string>;
  /** Its configuration asks for the network (`network: true`). */
  network: boolean;
}

/** The task a server starts for: its tree's copy of the workspace, brought to this task's view. */
export interface ServerTask {
  rootId: string;
  /** The files as the task sees them when it starts (proposals made earlier in the tree). */
  proposals(): Promise<ProposedFile[]>;
  signal: AbortSignal;
}

/** How to start a server in the sandbox, and what to say about it. */
export interface SandboxedServer {
  command: string;
  args: string[];
  environment: Record<string, string>;
  /** Its working directory: the workspace's place in its copy. */
  cwd: string;
  /** For the agent, in each of its tools' descriptions. */
  note: string;
  /** For the task's transcript and its agent (it asked for the network and did not get it). */
  notices: string[];
  /** Called once when the server is closed; `exited`: its process is known to be gone. */
  release(exited: boolean): void;
}

/** What the agent is told about a sandboxed server's tools. */
export function sandboxedServerNote(network: boolean): string {
  return `This MCP server runs in the OS sandbox: it sees a copy of the workspace as this task began (ignored files such as .env hidden), a private home${network ? ', and the network' : ' and no network'}; its writes are discarded: propose file changes with Edit or Write instead, for the user's review.`;
}

/** The `McpConnectOptions.sandbox` of a host: its servers go where its commands go, in the sandbox or not. */
export function serverSandbox(commands: CommandHost) {
  return async (server: string, program: ServerProgram, task: ServerTask): Promise<SandboxedServer | undefined> => {
    const state = await commands.sandbox();
    // Without a sandbox whether a server starts at all is the host's decision (McpHost.allowed).
    if (state.mode !== 'sandbox') return undefined;
    const decision = serverNetwork(server, program, commands.network);
    const copy = await commands.copies.acquire(task.rootId);
    let handedOver = false;
    try {
      await copy.prepare(await task.proposals(), task.signal);
      const policy = serverPolicy({
        command: program.command,
        args: program.args,
        copy: copy.sandboxPaths,
        cwd: copy.cwd,
        workspaceRoot: commands.workspaceRoot,
        userHome: commands.userHome,
        userEnvironment: commands.environment(),
        network: decision.network,
      });
      const argv = [program.command, ...program.args].map((word) => intoCopy(word, commands.workspaceRoot, copy.cwd));
      const inside = { ...program.environment, TMPDIR: '/tmp' };
      let launch;
      if (state.availability.mechanism === 'bubblewrap') {
        launch = {
          file: state.availability.executable,
          args: bubblewrapArguments(policy, argv),
          environment: { ...inside, HOME: policy.home },
        };
      } else {
        // Seatbelt has no private mounts: the home and temporary folder are made in the copy's own folder.
        const own = copy.sandboxPaths.writable[0] ?? copy.cwd;
        const home = path.join(own, 'server-home');
        const temporary = path.join(own, 'server-tmp');
        await Promise.all([mkdir(home, { recursive: true }), mkdir(temporary, { recursive: true })]);
        launch = {
          file: state.availability.executable,
          args: ['-p', seatbeltProfile({ ...policy, home }, temporary), ...argv],
          environment: { ...inside, HOME: home, TMPDIR: temporary },
        };
      }
      const joined = copy.launch(launch);
      handedOver = true;
      return {
        command: joined.file,
        args: joined.args,
        environment: joined.environment,
        cwd: copy.cwd,
        note: sandboxedServerNote(decision.network),
        notices: decision.notice ? [decision.notice] : [],
        // A server that may still be running keeps its copy from anyone else: the copy is removed, not reused.
        release: (exited) => commands.copies.release(task.rootId, copy, { broken: !exited }),
      };
    } catch (error) {
      throw new Error(`its scratch copy of the workspace could not be made ready: ${errorMessage(error)}`, { cause: error });
    } finally {
      if (!handedOver) commands.copies.release(task.rootId, copy, { broken: true });
    }
  };
}

/**
 * A word of the command line that names the real workspace (`server-filesystem /home/ada/project`), made
 * to name its place in the copy: the real one is hidden in the sandbox, where it would be an empty folder.
 * The network was decided on the words as configured.
 */
export function intoCopy(word: string, workspaceRoot: string, copyCwd: string): string {
  const roots = [...new Set([workspaceRoot, realPathOf(workspaceRoot) ?? workspaceRoot].map((root) => root.replace(/\/+$/, '')))].filter(
    (root) => root !== '',
  );
  for (const root of roots) {
    if (word === root) return copyCwd;
    if (word.startsWith(`${root}/`)) return path.join(copyCwd, word.slice(root.length + 1));
  }
  return word;
}
