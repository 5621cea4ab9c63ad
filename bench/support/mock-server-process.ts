/**
 * The mock provider server in a child process of its own, for throughput benchmarks: in the benchmark's
 * process its work (parsing requests, writing streams) would compete with the engine for one event loop,
 * while a real provider's work happens elsewhere. Started by `startMockServerProcess`; the child runs
 * `serveMockProvider` (the `--probe mock-server` mode of the benchmark bundle).
 *
 * Routing: a request that carries tool results gets `secondTurn`, any other `firstTurn`, both after
 * `delayMs`; or, with `hangingText`, every request that text and then a stream held open until the client
 * closes it. Arrival and close times are absolute (`performance.timeOrigin + performance.now()`), so they
 * compare across the two processes.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { delayed, hangingStream, type MockResponse, startMockProviderServer } from '../../test/support/mock-provider/index.js';
import { carriesToolResult } from './mock-models.js';

/** Turns after a delay (B2), or every request a stream that says `hangingText` and is then held open (B3). */
export type MockServerScript = { delayMs: number; firstTurn: MockResponse; secondTurn: MockResponse } | { hangingText: string[] };

export interface MockServerStats {
  requests: number;
  arrivals: Array<{ second: boolean; at: number }>;
}

type ParentMessage = { type: 'script'; script: MockServerScript } | { type: 'stats' } | { type: 'reset' } | { type: 'latest-close' };
type ChildMessage =
  { type: 'ready'; baseUrl: string; openaiBaseUrl: string } | { type: 'stats'; stats: MockServerStats } | { type: 'closed'; at: number };

export interface MockServerProcess {
  baseUrl: string;
  openaiBaseUrl: string;
  stats(): Promise<MockServerStats>;
  /**
   * When the server saw the client close the latest request it received (absolute, `absoluteNow`): taken
   * by the server as it happened, in its own process, so that the engine's own work after a stop cannot
   * delay the server's noticing it (B3). Resolves once it has happened.
   */
  latestRequestClosed(): Promise<number>;
  /** Forgets the requests so far (between runs). */
  reset(): void;
  close(): Promise<void>;
}

export function absoluteNow(): number {
  return performance.timeOrigin + performance.now();
}

export async function startMockServerProcess(script: MockServerScript): Promise<MockServerProcess> {
  const child: ChildProcess = fork(process.argv[1], ['--probe', 'mock-server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <Type extends ChildMessage['type']>(type: Type) =>
    new Promise<Extract<ChildMessage, { type: Type }>>((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<ChildMessage, { type: Type }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the mock server process exited (${code}) before answering`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const send = (message: ParentMessage) => child.send(message);
  const ready = next('ready');
  send({ type: 'script', script });
  const { baseUrl, openaiBaseUrl } = await ready;
  return {
    baseUrl,
    openaiBaseUrl,
    async stats() {
      const answer = next('stats');
      send({ type: 'stats' });
      return (await answer).stats;
    },
    async latestRequestClosed() {
      const answer = next('closed');
      send({ type: 'latest-close' });
      return (await answer).at;
    },
    reset: () => send({ type: 'reset' }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** The child side: serves until the parent goes away. */
export async function serveMockProvider(): Promise<number> {
  const server = await startMockProviderServer();
  let arrivals: MockServerStats['arrivals'] = [];
  let requests = 0;
  let script: MockServerScript | undefined;
  // Each request's close, timed as the server sees it.
  const closes = new Map<number, Promise<number>>();
  server.respondWith((request) => {
    if (!script) throw new Error('the mock server process has no script');
    const second = carriesToolResult(request);
    arrivals.push({ second, at: absoluteNow() });
    requests += 1;
    closes.set(
      request.index,
      server.waitForClientClose(request.index).then(() => absoluteNow()),
    );
    if ('hangingText' in script) return hangingStream({ text: script.hangingText });
    return delayed(second ? script.secondTurn : script.firstTurn, script.delayMs);
  });
  const reply = (message: ChildMessage) => process.send?.(message);
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'script') {
      script = message.script;
      reply({ type: 'ready', baseUrl: server.baseUrl, openaiBaseUrl: server.openaiBaseUrl });
    } else if (message.type === 'stats') {
      reply({ type: 'stats', stats: { requests, arrivals } });
    } else if (message.type === 'reset') {
      arrivals = [];
      requests = 0;
    } else if (message.type === 'latest-close') {
      const latest = closes.get(server.requests.length - 1);
      if (!latest) throw new Error('the mock server process has had no request to close');
      void latest.then((at) => reply({ type: 'closed', at }));
    }
  });
  await new Promise<void>((resolve) => process.once('disconnect', () => resolve()));
  await server.close();
  return 0;
}
