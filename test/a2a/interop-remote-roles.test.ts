/**
 * A role file with `a2a_url`, run through the CLI (`agent-team run --agent <role> --json`), against agents
 * nobody here wrote: the 1.x SDK's server at protocol 1.0 (its card preferring JSON-RPC, then HTTP+JSON),
 * the 1.x SDK's 0.3 compatibility server and the old 0.3 SDK's server (each over both bindings), one
 * offering both versions (1.0 is chosen), and a Google ADK agent exposed with `toA2a` (its card naming
 * localhost and another port). For each: the answer
 * comes back as the run's output, the remote's status streams as `notice` events and its words as
 * `text-delta`s, and Stop (SIGINT) cancels the remote task.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAdkAgent } from '../support/interop/adk-agent.js';
import { startCompatV03Agent } from '../support/interop/compat-v03-agent.js';
import { startDualVersionAgent } from '../support/interop/dual-version-agent.js';
import { type InteropAgent, interopScript } from '../support/interop/interop-agent.js';
import { startLegacySdkV03Agent } from '../support/interop/legacy-sdk-v03-agent.js';
import { startV1SdkAgent } from '../support/interop/v1-sdk-agent.js';
import { type CliEvent, type CliRun, parseEvents, providerEnvironment, startCli } from '../cli/cli-harness.js';
import { useCliWorld } from '../cli/cli-world.js';

const world = useCliWorld({});

interface RemoteCase {
  name: string;
  start: () => Promise<InteropAgent>;
  /** What the run's notice names: the protocol version and binding the CLI chose. */
  version: '1.0' | '0.3';
  binding: 'JSON-RPC' | 'HTTP+JSON';
  /** Where the requests go: the card's path, on `a2a_url`'s host and port. */
  path: string;
  /** Whether the agent's status line names the prompt (ADK agents stream no status text, only thoughts). */
  saysProgress: boolean;
  /** Whether the agent can cancel a task (ADK's executor cannot: it refuses the request). */
  cancels: boolean;
  /** The usage the agent reports (ADK's `adk_usage_metadata`), if any. */
  usage?: { inputTokens: number; outputTokens: number };
}

const cases: RemoteCase[] = [
  {
    name: '1.x SDK agent, protocol 1.0, JSON-RPC',
    start: () => startV1SdkAgent({ preferred: 'JSONRPC' }),
    version: '1.0',
    binding: 'JSON-RPC',
    path: '/a2a/jsonrpc',
    saysProgress: true,
    cancels: true,
  },
  {
    name: '1.x SDK agent, protocol 1.0, HTTP+JSON',
    start: () => startV1SdkAgent({ preferred: 'HTTP+JSON' }),
    version: '1.0',
    binding: 'HTTP+JSON',
    path: '/a2a/rest',
    saysProgress: true,
    cancels: true,
  },
  {
    name: '1.x SDK 0.3 compatibility agent, JSON-RPC',
    start: () => startCompatV03Agent({ preferred: 'JSONRPC' }),
    version: '0.3',
    binding: 'JSON-RPC',
    path: '/a2a/jsonrpc',
    saysProgress: true,
    cancels: true,
  },
  {
    name: '1.x SDK 0.3 compatibility agent, HTTP+JSON',
    start: () => startCompatV03Agent({ preferred: 'HTTP+JSON' }),
    version: '0.3',
    binding: 'HTTP+JSON',
    path: '/a2a/rest',
    saysProgress: true,
    cancels: true,
  },
  {
    name: 'old 0.3 SDK agent, JSON-RPC',
    start: () => startLegacySdkV03Agent({ preferred: 'JSONRPC' }),
    version: '0.3',
    binding: 'JSON-RPC',
    path: '/a2a/jsonrpc',
    saysProgress: true,
    cancels: true,
  },
  {
    name: 'old 0.3 SDK agent, HTTP+JSON',
    start: () => startLegacySdkV03Agent({ preferred: 'HTTP+JSON' }),
    version: '0.3',
    binding: 'HTTP+JSON',
    path: '/a2a/rest',
    saysProgress: true,
    cancels: true,
  },
  // Its card lists 0.3 first: 1.0 is still the one to use when a card offers it.
  {
    name: '1.x SDK agent offering 1.0 and 0.3 (0.3 listed first)',
    start: () => startDualVersionAgent({ preferred: 'JSONRPC' }),
    version: '1.0',
    binding: 'JSON-RPC',
    path: '/a2a/jsonrpc',
    saysProgress: true,
    cancels: true,
  },
  {
    name: 'Google ADK agent (toA2a, card at localhost on another port)',
    start: () => startAdkAgent(),
    version: '0.3',
    binding: 'JSON-RPC',
    path: '/jsonrpc',
    saysProgress: false,
    cancels: false,
    usage: { inputTokens: interopScript.usage.promptTokenCount, outputTokens: interopScript.usage.candidatesTokenCount },
  },
];

/** `agent-team run --agent interop --json <prompt>` in a workspace whose role file points at `agent`. */
async function runRemoteRole(agent: InteropAgent, prompt: string): Promise<CliRun> {
  const roles = path.join(world.workspace, '.agent-team', 'agents');
  await mkdir(roles, { recursive: true });
  await writeFile(
    path.join(roles, 'interop.md'),
    `---\nname: interop\ndescription: An agent nobody here wrote.\na2a_url: ${agent.url}\n---\n`,
  );
  const provider = providerEnvironment('openai', world.server.baseUrl);
  return startCli(
    world.cliPath,
    ['run', '--agent', 'interop', '--json', '--workspace', world.workspace, '--trust', ...provider.args, prompt],
    provider.env,
  );
}

const notices = (events: CliEvent[]) => events.filter((event) => event.type === 'notice').map((event) => String(event.text));

/** Resolves when the CLI streams the remote's first words; fails with its stderr if it ends before. */
function firstWords(run: CliRun): Promise<void> {
  return new Promise((resolve, reject) => {
    void run
      .waitForEvent((event) => event.type === 'text-delta' && String(event.text).includes(interopScript.chunks[0].trim()))
      .then(() => resolve());
    // Once resolved, a later rejection is ignored: the run's end is then expected.
    void run.exited.then(({ code, stderr }) =>
      reject(new Error(`the CLI ended (exit ${code}) before the remote's first words:\n${stderr}`)),
    );
  });
}

describe.each(cases)('a remote role on the $name', (remote) => {
  it('answers: the output, its words streamed, its status and the chosen protocol in the notices', async () => {
    const agent = await remote.start();
    const run = await runRemoteRole(agent, 'What is the answer?');
    await firstWords(run);
    agent.journal.release();
    const { code, stdout, stderr } = await run.exited;

    expect(code, stderr).toBe(0);
    const events = parseEvents(stdout);
    expect(agent.journal.prompts).toEqual(['What is the answer?']);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', output: interopScript.answer });
    const streamed = events.filter((event) => event.type === 'text-delta').map((event) => String(event.text));
    expect(streamed.join('')).toBe(interopScript.answer);
    const said = notices(events);
    const origin = new URL(agent.url).origin;
    expect(said).toContainEqual(
      expect.stringMatching(
        new RegExp(`A2A ${remote.version.replace('.', '\\.')}\\b.*${remote.binding.replace('+', '\\+')}.*${origin}${remote.path}`),
      ),
    );
    expect(said).toContainEqual(expect.stringMatching(/working/));
    if (remote.saysProgress) expect(said).toContainEqual(expect.stringContaining(interopScript.progress('What is the answer?')));
    expect(said).toContainEqual(expect.stringMatching(/completed/));
    const taskEnd = events.find((event) => event.type === 'task-end');
    expect(taskEnd).toMatchObject({ status: 'completed', output: interopScript.answer });
    if (remote.usage) expect(taskEnd?.usage).toEqual(remote.usage);
  });

  it('Stop (SIGINT) cancels the remote task', async () => {
    const agent = await remote.start();
    const run = await runRemoteRole(agent, 'Take your time');
    await firstWords(run);
    run.child.kill('SIGINT');
    const { code, stdout } = await run.exited;

    expect(code).toBe(130);
    expect(agent.journal.cancelledTasks).toHaveLength(1);
    const events = parseEvents(stdout);
    expect(events.find((event) => event.type === 'task-end')).toMatchObject({ status: 'stopped' });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'stopped' });
    // Said as it is: cancelled, or (ADK cannot cancel) that the remote task may still be running.
    const [taskId] = agent.journal.cancelledTasks;
    expect(notices(events)).toContainEqual(
      expect.stringMatching(remote.cancels ? new RegExp(`${taskId} cancelled`) : new RegExp(`${taskId}.*not cancelled.*not supported`)),
    );
  });
});
