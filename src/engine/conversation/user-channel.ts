/**
 * How agents reach the user: the host supplies it (the CLI reads answers from stdin; the extension shows
 * the question on the task's row and in its detail view). The engine only asks and waits.
 */

export interface UserQuestion {
  taskId: string;
  /** Who asks; the host finds the task's title by its id. */
  role: string;
  /**
   * `question`: an `AskUser` call; `chat`: a chat agent's latest message, waiting for the user's reply;
   * `plan`: a plan to approve before any subagent starts (conversation/plan-question.ts), answered in free text.
   */
  kind: 'question' | 'chat' | 'plan';
  text: string;
}

export interface UserChannel {
  /**
   * Puts the question to the user. Resolves with the answer, or with undefined when nobody can answer
   * (no terminal, input closed, the user ended the chat). Rejects (or never resolves) once `signal`
   * aborts: the task was stopped.
   */
  ask(question: UserQuestion, signal: AbortSignal): Promise<string | undefined>;
}

/** What an agent is told when nobody can answer. */
export const noUserAvailable = 'No user is available to answer. Decide for yourself, say in your answer what you assumed, and go on.';
