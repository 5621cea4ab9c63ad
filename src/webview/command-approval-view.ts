/**
 * The command a waiting task wants to run (`Bash`), in its detail view: the command itself, whole (it
 * wraps; nothing is cut, so no padding can hide a tail), what the agent says it is for, how it would run
 * (in the OS sandbox or not, with the network or not), and the user's answers. "Always" is there only
 * where the host offers it (not without a sandbox). Shown only while the task waits on one (its latest
 * transcript entry is the Bash call it waits to run).
 */
import type { ProtocolTask, TaskDetail, WebviewMessage } from '../shared/protocol.js';
import { createButton, createElement, setTextIfChanged } from './dom.js';
import type { TranscriptState } from './store.js';
import { pendingCommand } from '../shared/pending-command.js';
import { visibleText } from '../shared/visible-text.js';
import { l10n } from './l10n.js';

/** How the command would run, as the host said it (absent until it has). */
export type CommandApprovalState = NonNullable<TaskDetail['commandApproval']>;

export class CommandApprovalView {
  readonly element: HTMLElement;
  private readonly command: HTMLElement;
  private readonly purpose: HTMLParagraphElement;
  private readonly isolation: HTMLParagraphElement;
  private readonly always: HTMLButtonElement;
  private taskId: string | undefined;

  constructor(
    document: Document,
    private readonly post: (message: WebviewMessage) => void,
  ) {
    const heading = createElement(document, 'p', {
      className: 'approval-heading',
      text: l10n.t('Run this command in a scratch copy of the workspace?'),
    });
    this.command = createElement(document, 'code', { className: 'approval-command' });
    this.purpose = createElement(document, 'p', { className: 'approval-purpose' });
    this.isolation = createElement(document, 'p', { className: 'approval-isolation' });
    const note = createElement(document, 'p', {
      className: 'approval-note',
      text: l10n.t('It sees the proposals; your files are not touched and nothing it changes is kept.'),
    });
    const decide = (decision: 'once' | 'always' | 'deny') => () => {
      if (this.taskId) this.post({ type: 'approve-command', taskId: this.taskId, decision });
    };
    const allowOnce = createButton(document, l10n.t('Allow once'), { icon: 'codicon-check', className: 'approval-once' });
    allowOnce.addEventListener('click', decide('once'));
    const always = createButton(document, l10n.t('Always for this workspace'), { secondary: true, className: 'approval-always' });
    always.addEventListener('click', decide('always'));
    this.always = always;
    const deny = createButton(document, l10n.t('Deny'), { secondary: true, className: 'approval-deny' });
    deny.addEventListener('click', decide('deny'));
    const buttons = createElement(document, 'div', { className: 'approval-buttons' }, [allowOnce, always, deny]);
    this.element = createElement(
      document,
      'section',
      { className: 'detail-section approval', attributes: { 'aria-label': l10n.t('Command approval') } },
      [heading, this.command, this.purpose, this.isolation, note, buttons],
    );
    this.element.hidden = true;
  }

  /** Shows the command the task waits to run; returns whether it shows one. */
  render(task: ProtocolTask, transcript: TranscriptState, approval?: CommandApprovalState): boolean {
    this.taskId = task.id;
    const request = task.status === 'waiting' ? pendingCommand(transcript.entries) : undefined;
    this.element.hidden = request === undefined;
    if (!request) return false;
    setTextIfChanged(this.command, visibleText(request.command));
    setTextIfChanged(this.purpose, request.description ? l10n.t('For: {0}', request.description) : '');
    this.purpose.hidden = !request.description;
    setTextIfChanged(this.isolation, approval?.summary ?? '');
    this.isolation.hidden = approval === undefined;
    // Until the host has said how it would run, "Always" waits too: it may not be offered.
    this.always.hidden = approval?.offerAlways !== true;
    return true;
  }
}
