/**
 * The run's plan in an `@team` answer: its todo list each time it changes (`TodoWrite`, a planned run's
 * sub-tasks), and a plan that waits for the user's approval (`agentTeam.approvePlan`), with a button to
 * the run in the Agent Team view, where Approve plan, Stop run and the Answer box are.
 */
import * as vscode from 'vscode';
import { isPlanQuestion, sameTodos, type TaskSnapshot, type TodoItem, todoProgress, type TranscriptEntry } from '../../engine/index.js';
import { escapeMarkdown } from './markdown-text.js';

/** What of `vscode.ChatResponseStream` the plan needs. */
type PlanReport = Pick<vscode.ChatResponseStream, 'markdown' | 'button'>;

const marks: Record<TodoItem['status'], string> = { pending: '\u25cb', in_progress: '\u25b8', completed: '\u2713' };

/** Says each change of a run's todo lists once. */
export class ChatTodos {
  private readonly lists = new Map<string, readonly TodoItem[]>();

  constructor(private readonly stream: PlanReport) {}

  /** Feed the run's task updates. */
  update(task: TaskSnapshot): void {
    if (!task.todos || task.todos.length === 0 || sameTodos(this.lists.get(task.id), task.todos)) return;
    this.lists.set(task.id, task.todos);
    const items = task.todos.map(
      (todo) => `- ${marks[todo.status]} ${escapeMarkdown(todo.status === 'in_progress' ? todo.activeForm : todo.content)}`,
    );
    this.stream.markdown(
      `\n\n${vscode.l10n.t('**Plan** of {0} ({1}):', escapeMarkdown(task.role), todoProgress(task.todos))}\n${items.join('\n')}\n`,
    );
  }
}

/** The plan a waiting task puts to the user (its latest transcript entry), if that is what it waits on. */
export function planQuestionOf(transcript: readonly TranscriptEntry[]): string | undefined {
  const entry = transcript.at(-1);
  return entry?.type === 'notice' && isPlanQuestion(entry.text) ? entry.text : undefined;
}

/** Tells the chat that the run waits for the plan's approval, and where to give it. */
export function reportPlanQuestion(stream: PlanReport, task: TaskSnapshot, question: string): void {
  stream.markdown(
    `\n\n${vscode.l10n.t('**{0}** waits for you to approve its plan before any subagent starts:', escapeMarkdown(task.role))}\n\n${escapeMarkdown(question).replace(/\n/g, '  \n')}\n`,
  );
  stream.button({ command: 'agentTeam.showTask', arguments: [task.id], title: vscode.l10n.t('Approve or Change the Plan') });
}
