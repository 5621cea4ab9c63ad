/**
 * A role with `a2a_url` as `TaskWork`: the prompt goes to the remote A2A agent through the official SDK's
 * client (protocol 1.0, or 0.3 through its compatibility layer, whichever the agent's card offers; JSON-RPC
 * or HTTP+JSON, streamed), its status lines go into the task's transcript, its answer streams as the task's
 * text and comes back as its output, reported usage is counted. Stop cancels the remote task; a remote
 * that does not confirm is said to be possibly still running. Silence longer than a timeout on the
 * engine's clock ends the task with a readable error. Every failure after the card was read names what
 * the card offered and what we tried.
 */
import { randomUUID } from 'node:crypto';
// Types only: the SDK itself is loaded with import() when a remote task starts (its own vendor bundle).
import type * as ClientSdk from './a2a-client-sdk.js';
import { type Clock, systemClock } from '../clock.js';
import type { ModelMessage } from '../model/types.js';
import { secretValues } from '../secrets.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import { combineSignals, linkSignals } from '../abort.js';
import { RemoteAgentError } from './remote-agent-error.js';
import { describeRemoteFailure, displayAddress } from './remote-failure.js';
import { type ChosenInterface, chooseInterface, describeChoice, describeOffer, offeredInterfaces, readAgentCard } from './remote-card.js';
import { type RemoteEvent, RemoteProgress } from './remote-progress.js';
import { message, textPart } from './a2a-objects.js';
import { hopsMetadataKey } from './hop-count.js';
import { servedHere } from './served-addresses.js';
import { SilenceTimer } from '../silence-timer.js';

/** What the host lets remote roles do, and the clock and limits they run on. */
export interface A2aHost {
  /** False where the workspace is not trusted: a role file must not send work, or a token, away from there. */
  allowed: () => boolean;
  /** Where `a2a_auth_env` variables are read. Default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Default `systemClock`. */
  clock?: Clock;
  /** How long reaching the agent (its card, then its first answer) may take. Default 30,000 ms. */
  connectTimeoutMs?: number;
  /** How long the remote may be silent once it has answered. Default 600,000 ms (agents think long). */
  idleTimeoutMs?: number;
  /**
   * How long a cancellation after Stop may take before it is given up. Default 1,500 ms: a stopped task's
   * work has 2 s (the task manager's grace) to say how its remote task ended.
   */
  cancelTimeoutMs?: number;
  /** Values to keep out of messages beyond the role's own token (the model providers' keys). Default none. */
  secrets?: readonly string[];
}

export interface RemoteRoleSpec {
  role: string;
  url: string;
  authEnv?: string;
  /** The task; for a conversation (a follow-up), its last user message is what is sent. */
  prompt: string | ModelMessage[];
  /**
   * How many agent-team servers the request this run serves has passed through (0: the user started the
   * run); sent on as `agentTeam/hops` so a loop of servers is refused (hop-count.ts). Default 0.
   */
  hops?: number;
}

type RemoteClient = Awaited<ReturnType<InstanceType<typeof ClientSdk.ClientFactory>['createFromAgentCard']>>;

/** What the exchange learned from the card: for every error after it, what was offered and what we tried. */
interface Negotiated {
  offered: string;
  chosen?: ChosenInterface;
}

export function remoteTaskWork(host: A2aHost | undefined, spec: RemoteRoleSpec): TaskWork {
  return async (context) => {
    const address = displayAddress(spec.url);
    context.setModel(`a2a/${new URL(spec.url).host}`);
    if (!host || !host.allowed()) {
      const why = host
        ? 'this folder is not trusted (VS Code: Manage Workspace Trust; the CLI: agent-team trust, or --trust)'
        : 'this host does not run remote agents';
      throw new RemoteAgentError(
        'not-allowed',
        `Role '${spec.role}' runs on the remote agent at ${address}, which was not contacted: ${why}.`,
      );
    }
    if (servedHere(spec.url)) {
      throw new RemoteAgentError(
        'not-allowed',
        `Role '${spec.role}' runs on the remote agent at ${address}, which is this agent-team server itself: the request would come back here and start the role again. Point its 'a2a_url' at another agent.`,
      );
    }
    const token = spec.authEnv ? (host.environment ?? process.env)[spec.authEnv]?.trim() : undefined;
    if (spec.authEnv && !token) {
      throw new RemoteAgentError(
        'not-allowed',
        `Role '${spec.role}' needs the environment variable ${spec.authEnv} (its 'a2a_auth_env') to hold the token for ${address}, and it is not set.`,
      );
    }
    return new RemoteExchange(host, spec, context, token).run();
  };
}

/** One task's conversation with the remote agent, from the agent card to the final status. */
class RemoteExchange {
  private readonly clock: Clock;
  private readonly secrets: string[];
  private progress = new RemoteProgress();
  private readonly deadline: SilenceTimer;
  /** Aborted when the exchange is over, so a stream left early does not keep its connection open. */
  private readonly finished = new AbortController();
  private readonly address: string;
  /** What ends the request under way: the exchange's signal, then (after a Stop) the cancellation's own. */
  private requestSignal: AbortSignal;
  private negotiated?: Negotiated;

  constructor(
    private readonly host: A2aHost,
    private readonly spec: RemoteRoleSpec,
    private readonly context: TaskWorkContext,
    private readonly token: string | undefined,
  ) {
    this.clock = host.clock ?? systemClock;
    this.secrets = secretValues([token, ...(host.secrets ?? [])]);
    this.deadline = new SilenceTimer(this.clock, noAnswerWithin);
    this.address = displayAddress(spec.url);
    this.requestSignal = this.finished.signal;
  }

  async run(): Promise<TaskWorkResult> {
    const connection = combineSignals([this.context.signal, this.deadline.signal, this.finished.signal]);
    this.requestSignal = connection.signal;
    let client: RemoteClient | undefined;
    try {
      this.deadline.restart(this.host.connectTimeoutMs ?? 30_000);
      client = await this.connect();
      this.deadline.restart(this.host.connectTimeoutMs ?? 30_000);
      const stream = client.sendMessageStream(
        { tenant: '', message: this.message(), configuration: undefined, metadata: undefined },
        { signal: connection.signal },
      );
      for await (const event of stream) {
        this.deadline.restart(this.host.idleTimeoutMs ?? 600_000);
        this.show(event);
        if (this.progress.finished || this.progress.blocked) break;
      }
    } catch (error) {
      if (!this.context.signal.aborted) throw this.failure(error);
    } finally {
      this.deadline.dispose();
      this.finished.abort();
      connection.dispose();
    }
    if (this.context.signal.aborted) {
      await this.cancelRemote(client);
      return { status: 'completed', output: this.progress.output };
    }
    return this.result(client);
  }

  private async connect(): Promise<RemoteClient> {
    const sdk = await import('./a2a-client-sdk.js');
    const fetchImpl = this.authorizedFetch();
    // The card path is relative: without the trailing slash, the agent's last path segment would be lost.
    const base = this.spec.url.endsWith('/') ? this.spec.url : `${this.spec.url}/`;
    const card = await readAgentCard(sdk, base, fetchImpl);
    this.context.setModel(`a2a/${card.name}`);
    const offered = describeOffer(offeredInterfaces(card));
    const chosen = chooseInterface(card, base);
    if (typeof chosen === 'string') {
      throw new RemoteAgentError(
        'protocol',
        `The remote agent for '${this.spec.role}' at ${this.address} cannot be used: ${chosen}. Its card offers: ${offered}.`,
        this.secrets,
      );
    }
    this.negotiated = { offered, chosen };
    this.progress = new RemoteProgress(chosen.generation === '0.3' && chosen.binding.toUpperCase() === 'HTTP+JSON');
    this.context.appendTranscript({
      type: 'notice',
      text: `Remote agent: ${card.name}, A2A ${chosen.generation} over ${describeChoice(chosen)}`,
    });
    const legacyCompat = { enabled: true };
    const factory = new sdk.ClientFactory({
      transports: [new sdk.JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new sdk.RestTransportFactory({ fetchImpl, legacyCompat })],
      // The card is read already; a second reading would take the SDK's guesses about its JSON again.
      cardResolver: {
        resolve: () => Promise.reject(new Error('the card is read already')),
        normalizeAgentCard: (read) => read as typeof card,
      },
    });
    return factory.createFromAgentCard(chosen.card);
  }

  /**
   * `fetch` with the bearer token and the current request signal on every request the SDK makes (the
   * agent card's has none of its own). The abort reason handed to `fetch` is a plain error: a task's stop
   * reason is a frozen object, on which undici fails to record a stack.
   */
  private authorizedFetch(): typeof fetch {
    const token = this.token;
    return (input, init = {}) => {
      const headers = new Headers(init.headers);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      const controller = new AbortController();
      for (const source of init.signal ? [this.requestSignal, init.signal] : [this.requestSignal]) {
        linkSignals(source, controller, () => new DOMException('The request was aborted.', 'AbortError'));
      }
      return fetch(input, { ...init, headers, signal: controller.signal });
    };
  }

  private message() {
    const prompt = this.spec.prompt;
    const text = typeof prompt === 'string' ? prompt : lastUserText(prompt);
    return message({
      role: 'user',
      messageId: randomUUID(),
      parts: [textPart(text)],
      metadata: { [hopsMetadataKey]: this.spec.hops ?? 0 },
    });
  }

  private show(event: RemoteEvent): void {
    const update = this.progress.read(event);
    if (update.status) this.context.appendTranscript({ type: 'notice', text: `Remote agent: ${update.status}` });
    if (update.text) this.context.appendText(update.text);
    if (update.usage) this.context.reportUsage(update.usage);
  }

  private result(client: RemoteClient | undefined): Promise<TaskWorkResult> | TaskWorkResult {
    const progress = this.progress;
    const said = progress.lastStatusText ? `: ${progress.lastStatusText}` : '';
    const tried = this.triedText();
    if (progress.state === 'completed') return { status: 'completed', output: progress.output };
    if (progress.blocked) {
      // It would wait for an answer nobody gives; cancelled so it does not hold resources on the remote.
      return this.cancelRemote(client).then(() => {
        throw new RemoteAgentError(
          'blocked',
          `The remote agent for '${this.spec.role}' at ${this.address} asked for ${progress.state === 'auth-required' ? 'authentication' : 'input'}, which a subagent cannot give${said}`,
          this.secrets,
        );
      });
    }
    if (progress.state === 'canceled')
      throw new RemoteAgentError(
        'failed',
        `The remote agent for '${this.spec.role}' at ${this.address} cancelled the task${said}`,
        this.secrets,
      );
    if (progress.state === 'failed' || progress.state === 'rejected') {
      throw new RemoteAgentError(
        'failed',
        `The remote agent for '${this.spec.role}' at ${this.address} ${progress.state === 'failed' ? 'failed' : 'rejected the task'}${said}`,
        this.secrets,
      );
    }
    throw new RemoteAgentError(
      'protocol',
      `The remote agent for '${this.spec.role}' at ${this.address} ended its answer without finishing the task (last state: ${progress.state ?? 'none'})${tried}`,
      this.secrets,
    );
  }

  /**
   * Best effort, bounded in time: the local task ends either way. Whatever happens is said in the task's
   * transcript (which reaches the CLI's JSON events and the trace): after a Stop the task is winding down,
   * and may still add notices until its end.
   */
  private async cancelRemote(client: RemoteClient | undefined): Promise<void> {
    const taskId = this.progress.taskId;
    if (!client || !taskId || this.progress.finished) return;
    const timeout = new SilenceTimer(this.clock, noAnswerWithin);
    const limitMs = this.host.cancelTimeoutMs ?? 1_500;
    timeout.restart(limitMs);
    this.requestSignal = timeout.signal;
    try {
      await client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal: timeout.signal });
      this.context.appendTranscript({ type: 'notice', text: `Remote agent: task ${taskId} cancelled` });
    } catch (error) {
      const why = describeRemoteFailure(error, timeout.firedAfterMs, this.secrets);
      this.context.appendTranscript({
        type: 'notice',
        text: `Remote agent: task ${taskId} at ${this.address} was not cancelled (${why}): the remote task may still be running.`,
      });
    } finally {
      timeout.dispose();
    }
  }

  /** For an error after the card was read: what it offered and what we tried. */
  private triedText(): string {
    const negotiated = this.negotiated;
    if (!negotiated?.chosen) return '';
    return `. Its card offers: ${negotiated.offered}; tried ${describeChoice(negotiated.chosen)}`;
  }

  private failure(error: unknown): RemoteAgentError {
    const timedOut = this.deadline.firedAfterMs !== undefined;
    const what = describeRemoteFailure(error, this.deadline.firedAfterMs, this.secrets);
    if (error instanceof RemoteAgentError) return error;
    const stage = this.progress.taskId ? 'stopped answering' : this.negotiated ? 'did not take the task' : 'could not be reached';
    const hint = this.negotiated && !this.progress.taskId && !timedOut ? versionHint(what) : '';
    return new RemoteAgentError(
      timedOut ? 'timeout' : this.negotiated ? 'protocol' : 'unreachable',
      `The remote agent for '${this.spec.role}' at ${this.address} ${stage}: ${what}${hint}${this.triedText()}`,
      this.secrets,
    );
  }
}

/**
 * An agent whose card names one protocol version and that speaks another answers the first request with
 * "method not found", a 404, or a body that is not the stream asked for: said so, since the raw error does not.
 */
function versionHint(what: string): string {
  return /method not found|-32601|\b404\b|content-type|not a valid|unexpected token/i.test(what)
    ? ' (the agent may speak another protocol version than its card offers)'
    : '';
}

/** Why a silent remote's request was ended (the abort reason the HTTP client reports). */
function noAnswerWithin(silentMs: number): Error {
  return new Error(`no answer within ${Math.round(silentMs / 1000)} s`);
}

function lastUserText(messages: readonly ModelMessage[]): string {
  const last = [...messages].reverse().find((message) => message.role === 'user');
  return (last?.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}
