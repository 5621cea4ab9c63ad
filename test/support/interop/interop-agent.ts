/**
 * What every interoperability test agent is and says, whichever SDK it is built with: it answers any
 * prompt with a status line naming the prompt, the first words of its answer, then (once the test
 * releases it) the rest, so the tests can check the same things against each of them.
 */
import type { AgentJournal } from './agent-journal.js';

export interface InteropAgent {
  /** What a role file's `a2a_url` names: the base address the agent card is found under. */
  readonly url: string;
  readonly journal: AgentJournal;
  /** Stops listening (called by itself when the test ends; calling it earlier is allowed). */
  close(): Promise<void>;
}

export const interopScript = {
  /** The text of the working status the agent sends first. */
  progress: (prompt: string) => `Looking into: ${prompt}`,
  /** The answer's chunks: the first is sent at once, the second after the release. */
  chunks: ['The answer ', 'is 42.'] as const,
  answer: 'The answer is 42.',
  /** The tokens the ADK agent reports (ADK's own usage shape, `adk_usage_metadata`). */
  usage: { promptTokenCount: 21, candidatesTokenCount: 5, totalTokenCount: 26 },
} as const;
