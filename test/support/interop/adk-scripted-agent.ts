/**
 * A Google ADK agent with no model: a custom `BaseAgent` that says the interop script the way an ADK
 * model agent streams — a thought (its progress), partial words, then, once the test releases it, the
 * rest and the whole answer again as the final event, with ADK's usage on it.
 */
import { BaseAgent, createEvent, type Event, type InvocationContext } from '@google/adk';
import type { AgentJournal } from './agent-journal.js';
import { interopScript } from './interop-agent.js';

/** A genai part (ADK's content type), named through ADK's own `Event` so no other package is imported. */
type Part = NonNullable<NonNullable<Event['content']>['parts']>[number];

export class AdkScriptedAgent extends BaseAgent {
  constructor(private readonly journal: AgentJournal) {
    super({ name: 'interop_adk_agent', description: 'An ADK agent nobody here wrote, for the interoperability tests' });
  }

  protected async *runAsyncImpl(context: InvocationContext): AsyncGenerator<Event, void, void> {
    const prompt = (context.userContent?.parts ?? []).map((part) => part.text ?? '').join('');
    this.journal.recordPrompt(prompt);
    const said = (parts: Part[], partial: boolean, extra: Partial<Event> = {}) =>
      createEvent({
        invocationId: context.invocationId,
        author: this.name,
        branch: context.branch,
        content: { role: 'model', parts },
        partial,
        ...extra,
      });
    yield said([{ text: interopScript.progress(prompt), thought: true }], true);
    yield said([{ text: interopScript.chunks[0] }], true);
    this.journal.recordStarted();
    await this.journal.released;
    yield said([{ text: interopScript.chunks[1] }], true);
    yield said([{ text: interopScript.answer }], false, { usageMetadata: { ...interopScript.usage } });
  }

  // eslint-disable-next-line require-yield -- ADK requires a live mode; this agent has none.
  protected async *runLiveImpl(): AsyncGenerator<Event, void, void> {
    throw new Error('The interop ADK agent has no live mode.');
  }
}
