/**
 * The composer of the selected task's detail view: one textarea and a Send button (Ctrl+Enter sends).
 * Its label says what the text becomes: `Answer` while the task waits for the user (the question it asked
 * is shown above; a plan to approve adds Approve plan and Stop run), `Message` while it runs (it reads the message at its next turn), `Follow-up` on a
 * finished run's root (the run goes on with its context). Hidden otherwise, and while the task's
 * question waits behind another task's (`queuedForUser`).
 */
import type { ProtocolTask, WebviewMessage } from '../shared/protocol.js';
import { createButton, createElement, setTextIfChanged } from './dom.js';
import type { MessageSent, TranscriptState } from './store.js';
import { type CommandApprovalState, CommandApprovalView } from './command-approval-view.js';
import { l10n } from './l10n.js';
import { isPlanQuestion } from '../engine/conversation/plan-question.js';

/** Roots that are conversations (the coordinator, a role run directly) can be followed up; pipelines cannot. */
const notConversations: ReadonlySet<string> = new Set(['workflow', 'plan']);

/** Said after a message went: read at the time, once the host's translations are in (l10n.ts). */
function sentNotice(outcome: MessageSent['outcome']): string {
  if (outcome === 'answered') return l10n.t('Answer sent.');
  if (outcome === 'delivered') return l10n.t('Sent: the agent reads it at its next turn.');
  return l10n.t('Follow-up started: it runs under this task.');
}

export class ComposerView {
  readonly element: HTMLElement;
  /** A waiting task's command to allow or deny: shown instead of the Answer box. */
  readonly approval: CommandApprovalView;
  private readonly question: HTMLParagraphElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly endChat: HTMLButtonElement;
  private readonly approvePlan: HTMLButtonElement;
  private readonly stopPlan: HTMLButtonElement;
  private readonly status: HTMLParagraphElement;
  private taskId: string | undefined;
  /** The sent-notice already shown, so a later send of the same kind shows again. */
  private shownNotice: object | undefined;

  constructor(
    document: Document,
    private readonly post: (message: WebviewMessage) => void,
  ) {
    this.question = createElement(document, 'p', { className: 'composer-question' });
    this.textarea = createElement(document, 'textarea', { className: 'composer-text', attributes: { rows: '3' } });
    this.send = createButton(document, l10n.t('Send'), { icon: 'codicon-send', ariaLabel: l10n.t('Send'), className: 'composer-send' });
    this.send.addEventListener('click', () => this.submit());
    this.textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.submit();
      }
    });
    this.endChat = createButton(document, l10n.t('End chat'), {
      secondary: true,
      ariaLabel: l10n.t('End chat'),
      className: 'composer-end',
    });
    this.endChat.addEventListener('click', () => {
      if (this.taskId) this.post({ type: 'end-chat', taskId: this.taskId });
    });
    this.status = createElement(document, 'p', { className: 'composer-status', attributes: { role: 'status' } });
    // A plan question's one-click answers; changes are typed in the Answer box (plan-question.ts reads all three).
    this.approvePlan = createButton(document, l10n.t('Approve plan'), {
      icon: 'codicon-check',
      ariaLabel: l10n.t('Approve plan'),
      className: 'composer-approve-plan',
    });
    this.approvePlan.addEventListener('click', () => this.answer('approve'));
    this.stopPlan = createButton(document, l10n.t('Stop run'), {
      secondary: true,
      ariaLabel: l10n.t('Stop run instead of approving the plan'),
      className: 'composer-stop-plan',
    });
    this.stopPlan.addEventListener('click', () => this.answer('stop'));
    const buttons = createElement(document, 'div', { className: 'composer-buttons' }, [
      this.stopPlan,
      this.approvePlan,
      this.endChat,
      this.send,
    ]);
    this.element = createElement(document, 'section', { className: 'detail-section composer' }, [
      this.question,
      this.textarea,
      buttons,
      this.status,
    ]);
    this.element.hidden = true;
    this.approval = new CommandApprovalView(document, post);
  }

  render(task: ProtocolTask, transcript: TranscriptState, sent?: MessageSent, commandApproval?: CommandApprovalState): void {
    if (this.taskId !== task.id) {
      this.textarea.value = '';
      setTextIfChanged(this.status, '');
    }
    this.taskId = task.id;
    if (sent && sent !== this.shownNotice && sent.taskId === task.id) {
      this.shownNotice = sent;
      setTextIfChanged(this.status, sentNotice(sent.outcome));
    }
    // A task waiting to run a command asks for a decision, not for text.
    const askingForCommand = this.approval.render(task, transcript, commandApproval);
    // A question queued behind another task's is not put yet: nothing to answer until its turn comes.
    const waiting = task.status === 'waiting' && !askingForCommand && task.queuedForUser !== true;
    const followUp =
      task.parentId === null &&
      (task.status === 'completed' || task.status === 'failed' || task.status === 'stopped') &&
      !notConversations.has(task.role);
    this.element.hidden = !(waiting || task.status === 'running' || followUp);
    const label = waiting ? l10n.t('Answer') : followUp ? l10n.t('Follow-up') : l10n.t('Message');
    if (this.textarea.getAttribute('aria-label') !== label) {
      this.textarea.setAttribute('aria-label', label);
      this.textarea.placeholder = waiting
        ? l10n.t('Your answer (Ctrl+Enter sends)')
        : followUp
          ? l10n.t('Continue this run: the agent keeps its context (Ctrl+Enter sends)')
          : l10n.t('A message the agent reads at its next turn (Ctrl+Enter sends)');
    }
    const question = waiting ? latestQuestion(transcript) : undefined;
    setTextIfChanged(this.question, question ?? '');
    this.question.hidden = !question;
    // Waiting without a question: a chat agent waiting for the user's reply, which the user may end.
    this.endChat.hidden = !(waiting && question === undefined);
    const plan = question !== undefined && isPlanQuestion(question);
    this.approvePlan.hidden = !plan;
    this.stopPlan.hidden = !plan;
  }

  private answer(text: string): void {
    if (!this.taskId) return;
    this.post({ type: 'send-message', taskId: this.taskId, text });
    setTextIfChanged(this.status, 'Sending…');
  }

  private submit(): void {
    const text = this.textarea.value.trim();
    if (!this.taskId || text === '') return;
    this.post({ type: 'send-message', taskId: this.taskId, text });
    this.textarea.value = '';
    setTextIfChanged(this.status, l10n.t('Sending…'));
  }
}

/**
 * The question the task waits on: its latest entry is an `AskUser` call (a chat agent waiting for a reply
 * ends its turn with text instead). Undefined when it waits on no question.
 */
function latestQuestion(transcript: TranscriptState): string | undefined {
  const entry = transcript.entries.at(-1);
  // A plan to approve (conversation/plan-question.ts) is put as a notice, after the calls it holds back.
  if (entry?.type === 'notice' && isPlanQuestion(entry.text)) return entry.text;
  if (entry?.type !== 'tool-call' || entry.toolName !== 'AskUser') return undefined;
  const question = (entry.input as { question?: unknown } | undefined)?.question;
  return typeof question === 'string' ? question : '';
}
