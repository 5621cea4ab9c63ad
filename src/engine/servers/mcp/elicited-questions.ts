/**
 * How a run served over MCP reaches the user: a question of one of its agents (a plan to approve with
 * `--approve-plan`, an `AskUser`) is put to the client as an elicitation (MCP's way for a server to ask
 * its user something while a tool call waits), with one text field for the answer. Accept answers;
 * decline of a plan stops the run; cancel, or a client that cannot elicit, leaves it unanswered.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { UserChannel, UserQuestion } from '../../conversation/user-channel.js';

/** A person answers: the protocol's default of 60 s per request is far too short. */
const answerTimeoutMs = 24 * 60 * 60 * 1000;

export class ElicitedQuestions implements UserChannel {
  /** `server`: the MCP server once connected (the engine, and this channel, are made before it). */
  constructor(private readonly server: () => Server | undefined) {}

  async ask(question: UserQuestion, signal: AbortSignal): Promise<string | undefined> {
    const server = this.server();
    if (!server?.getClientCapabilities()?.elicitation) return undefined;
    const result = await server.elicitInput(
      {
        message: question.text,
        requestedSchema: {
          type: 'object',
          properties: {
            answer: { type: 'string', title: question.kind === 'plan' ? 'approve, stop, or the changes you want' : 'Your answer' },
          },
          required: ['answer'],
        },
      },
      { signal, timeout: answerTimeoutMs },
    );
    if (result.action === 'accept') return String(result.content?.answer ?? '');
    // Declining a plan is a no: the run stops with nothing started.
    if (result.action === 'decline' && question.kind === 'plan') return 'stop';
    return undefined;
  }
}
