import { defaults } from '../limits.js';
import { randomUUID } from 'node:crypto';
import { combineSignals } from '../abort.js';
import { type Clock, systemClock } from '../clock.js';
import type { ModelMessage } from '../model/types.js';
import { secretValues } from '../secrets.js';
import { SilenceTimer } from '../silence-timer.js';
import type { TaskWorkContext, TaskWorkResult } from '../tasks/work.js';
import { message, textPart } from './a2a-objects.js';
import { hopsMetadataKey } from './hop-count.js';
import { authorizedFetch, connectRemote, type Negotiated, type RemoteClient } from './remote-connect.js';
import { describeRemoteFailure, displayAddress, noAnswerWithin } from './remote-failure.js';
import type { A2aHost, RemoteRoleSpec } from './remote-host.js';
import { type ExchangeFacts, exchangeFailure, unfinishedError } from './remote-outcome.js';
import { type RemoteEvent, RemoteProgress } from './remote-progress.js';

/** One task's conversation with the remote agent, from the agent card to the final status. */
export class RemoteExchange {
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
      this.deadline.restart(this.host.connectTimeoutMs ?? defaults.remoteConnectTimeoutMs);
      client = await connectRemote({
        role: this.spec.role,
        url: this.spec.url,
        address: this.address,
        secrets: this.secrets,
        context: this.context,
        fetchImpl: authorizedFetch(this.token, () => this.requestSignal),
        onNegotiated: (negotiated, progress) => {
          this.negotiated = negotiated;
          this.progress = progress;
        },
      });
      this.deadline.restart(this.host.connectTimeoutMs ?? defaults.remoteConnectTimeoutMs);
      const stream = client.sendMessageStream(
        { tenant: '', message: this.message(), configuration: undefined, metadata: undefined },
        { signal: connection.signal },
      );
      for await (const event of stream) {
        this.deadline.restart(this.host.idleTimeoutMs ?? defaults.remoteIdleTimeoutMs);
        this.show(event);
        if (this.progress.finished || this.progress.blocked) break;
      }
    } catch (error) {
      if (!this.context.signal.aborted) throw exchangeFailure(error, this.facts(), this.deadline.firedAfterMs);
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
    if (this.progress.state === 'completed') return { status: 'completed', output: this.progress.output };
    const error = unfinishedError(this.facts());
    // It would wait for an answer nobody gives; cancelled so it does not hold resources on the remote.
    if (this.progress.blocked) {
      return this.cancelRemote(client).then(() => {
        throw error;
      });
    }
    throw error;
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

  private facts(): ExchangeFacts {
    return { role: this.spec.role, address: this.address, secrets: this.secrets, progress: this.progress, negotiated: this.negotiated };
  }
}

function lastUserText(messages: readonly ModelMessage[]): string {
  const last = [...messages].reverse().find((message) => message.role === 'user');
  return (last?.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}
