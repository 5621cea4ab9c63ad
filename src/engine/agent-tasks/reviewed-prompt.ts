import { type TaskGrants, withContext } from '../capabilities/task-grants.js';
import type { ModelMessage } from '../model/types.js';

/**
 * The user's prompt as the agent gets it: reviewed first (a UserPromptSubmit hook may refuse it or add
 * context). A conversation continued (a follow-up) is reviewed by its last message, the user's new one.
 */
export async function reviewedPrompt(
  prompt: string | ModelMessage[],
  review: NonNullable<TaskGrants['reviewUserPrompt']>,
  signal: AbortSignal,
): Promise<{ prompt: string | ModelMessage[]; refused?: string }> {
  if (typeof prompt === 'string') {
    const verdict = await review(prompt, signal);
    return verdict.refused !== undefined ? { prompt, refused: verdict.refused } : { prompt: withContext(prompt, verdict.context) };
  }
  const last = prompt.at(-1);
  if (last?.role !== 'user') return { prompt };
  const text = last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  const verdict = await review(text, signal);
  if (verdict.refused !== undefined) return { prompt, refused: verdict.refused };
  if (verdict.context.length === 0) return { prompt };
  const added = withContext('', verdict.context).trimStart();
  return { prompt: [...prompt.slice(0, -1), { ...last, content: [...last.content, { type: 'text', text: added }] }] };
}
