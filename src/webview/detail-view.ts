/**
 * The detail pane of the selected task: its prompt, live transcript, final answer (Markdown), error or
 * stop reason, usage, model, and its change set. Sections update only when their input changed.
 */
import { endReason } from '../engine/tasks/end-reason.js';
import { type ChangeSummary, type ProtocolTask, type RunChecks, type TaskDetail, type WebviewMessage } from '../shared/protocol.js';
import { ChecksView } from './checks-view.js';
import { ChangesView } from './changes-view.js';
import { createButton, createElement, createIcon, setTextIfChanged } from './dom.js';
import { formatCost } from '../engine/model/cost-schema.js';
import { formatCount, formatTaskElapsed, treeTokens } from './format.js';
import { contextText } from './context-meter.js';
import { bindLinkHandler, type MarkdownRenderer } from './markdown.js';
import { isResumable, isStoppable, resumeAriaLabel, statusIconClasses, statusText, stopAriaLabel, taskTitle } from './status.js';
import { type MessageSent, type TranscriptState } from './store.js';
import { TranscriptView } from './transcript-view.js';
import { ComposerView } from './composer-view.js';
import { l10n } from './l10n.js';

export interface DetailInput {
  task: ProtocolTask;
  /** Its prompt and output; undefined until the host has sent them. */
  detail: TaskDetail | undefined;
  changes: ChangeSummary | undefined;
  transcript: TranscriptState;
  /** On the host's clock. */
  now: number;
  /** The host's word that the composer's last text reached a task. */
  messageSent?: MessageSent;
  /** The run's checks, when the task heads a run that has them. */
  checks?: RunChecks;
}

export class DetailView {
  readonly element: HTMLElement;
  private readonly icon: HTMLSpanElement;
  private readonly title: HTMLHeadingElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly resumeButton: HTMLButtonElement;
  private readonly meta: HTMLDListElement;
  private readonly elapsedValue: HTMLElement;
  private readonly reason: HTMLDivElement;
  private readonly result: HTMLElement;
  private readonly resultHeading: HTMLHeadingElement;
  private readonly resultBody: HTMLDivElement;
  private readonly prompt: HTMLPreElement;
  private readonly ancestors: HTMLElement;
  private readonly ancestorList: HTMLOListElement;
  private readonly changesView: ChangesView;
  private readonly checksView: ChecksView;
  private readonly transcriptView: TranscriptView;
  private readonly composer: ComposerView;
  private renderedTask: ProtocolTask | undefined;
  private renderedOutput: string | undefined;

  constructor(
    private readonly document: Document,
    private readonly markdown: MarkdownRenderer,
    private readonly post: (message: WebviewMessage) => void,
    onClose: () => void,
  ) {
    this.icon = createIcon(document, '', 'detail-status');
    this.title = createElement(document, 'h2', { className: 'detail-title' });
    this.stopButton = createButton(document, l10n.t('Stop'), { secondary: true, icon: 'codicon-debug-stop', className: 'detail-stop' });
    this.stopButton.addEventListener('click', () => {
      if (this.renderedTask) this.post({ type: 'stop-task', taskId: this.renderedTask.id });
    });
    this.resumeButton = createButton(document, l10n.t('Resume'), { icon: 'codicon-debug-continue', className: 'detail-resume' });
    this.resumeButton.addEventListener('click', () => {
      if (this.renderedTask) this.post({ type: 'resume-run', taskId: this.renderedTask.id });
    });
    const close = createElement(
      document,
      'button',
      {
        className: 'icon-button detail-close',
        attributes: { type: 'button', 'aria-label': l10n.t('Close details'), title: l10n.t('Close details') },
      },
      [createIcon(document, 'codicon-close')],
    );
    close.addEventListener('click', onClose);
    const header = createElement(document, 'div', { className: 'detail-header' }, [
      this.icon,
      this.title,
      this.stopButton,
      this.resumeButton,
      close,
    ]);

    this.elapsedValue = createElement(document, 'dd');
    this.meta = createElement(document, 'dl', { className: 'detail-meta' });
    this.reason = createElement(document, 'div', { className: 'detail-reason', attributes: { role: 'status' } });
    this.changesView = new ChangesView(document, post);
    this.checksView = new ChecksView(document, post);
    this.resultHeading = createElement(document, 'h3', { className: 'detail-heading' });
    this.resultBody = createElement(document, 'div', { className: 'markdown detail-result' });
    this.result = createElement(document, 'section', { className: 'detail-section result' }, [this.resultHeading, this.resultBody]);
    this.prompt = createElement(document, 'pre', { className: 'detail-prompt' });
    // The tasks this one is part of, as its agent saw them before its prompt (tasks/ancestor-tasks.ts).
    this.ancestorList = createElement(document, 'ol', { className: 'detail-ancestor-list' });
    this.ancestors = createElement(document, 'div', { className: 'detail-ancestors' }, [
      createElement(document, 'p', { text: l10n.t('Ancestor tasks (context only; the task is below):') }),
      this.ancestorList,
    ]);
    const promptSection = createElement(document, 'details', { className: 'detail-section prompt' }, [
      createElement(document, 'summary', { className: 'detail-heading', text: l10n.t('Prompt') }),
      this.ancestors,
      this.prompt,
    ]);
    this.transcriptView = new TranscriptView(document, markdown);
    this.composer = new ComposerView(document, post);
    this.element = createElement(document, 'section', { className: 'detail', attributes: { 'aria-label': l10n.t('Task details') } }, [
      header,
      this.meta,
      this.reason,
      this.composer.approval.element,
      this.composer.element,
      this.changesView.element,
      this.checksView.element,
      this.result,
      promptSection,
      this.transcriptView.element,
    ]);
    bindLinkHandler(this.element, post);
  }

  render(input: DetailInput): void {
    const { task } = input;
    // Follow a live transcript while the user is at the bottom of the pane; a newly selected task opens
    // at the top (its header and result come first).
    const follow = this.renderedTask?.id === task.id && this.isScrolledToBottom();
    if (task !== this.renderedTask) this.renderTask(task, input.now);
    if (this.renderedTask?.id !== task.id) this.element.scrollTop = 0;
    this.renderedTask = task;
    setTextIfChanged(this.prompt, input.detail?.prompt ?? '');
    this.renderAncestors(input.detail?.ancestorTasks ?? []);
    this.changesView.render(input.changes);
    this.checksView.render(input.checks);
    this.renderResult(task, input.detail?.output ?? '');
    this.transcriptView.render(input.transcript, task.transcriptLength);
    this.composer.render(
      task,
      input.transcript,
      input.messageSent,
      input.detail?.taskId === task.id ? input.detail.commandApproval : undefined,
    );
    if (follow) this.element.scrollTop = this.element.scrollHeight;
  }

  /**
   * Shows the transcript's streamed words now, between renders, when this pane shows that transcript and
   * nothing else of it is waiting (else false: a render must). Keeps following the end, as `render` does.
   */
  streamText(transcript: TranscriptState): boolean {
    if (this.element.hidden || this.renderedTask?.id !== transcript.taskId) return false;
    const follow = this.isScrolledToBottom();
    if (!this.transcriptView.streamText(transcript)) return false;
    if (follow) this.element.scrollTop = this.element.scrollHeight;
    return true;
  }

  private renderAncestors(chain: readonly string[]): void {
    this.ancestors.hidden = chain.length === 0;
    const shown = [...this.ancestorList.children].map((item) => item.textContent);
    if (shown.length === chain.length && shown.every((text, index) => text === chain[index])) return;
    this.ancestorList.replaceChildren(...chain.map((entry) => createElement(this.document, 'li', { text: entry })));
  }

  private isScrolledToBottom(): boolean {
    const element = this.element;
    return element.scrollHeight - element.scrollTop - element.clientHeight < 24;
  }

  /** Refreshes the elapsed time (the once-a-second tick). */
  tick(now: number): void {
    if (this.renderedTask) setTextIfChanged(this.elapsedValue, formatTaskElapsed(this.renderedTask, now) || '—');
  }

  private renderTask(task: ProtocolTask, now: number): void {
    this.icon.className = `codicon ${statusIconClasses[task.status]} detail-status status-${task.status}`;
    setTextIfChanged(this.title, taskTitle(task));
    this.title.setAttribute('title', `${taskTitle(task)} \u2014 ${statusText(task)}`);
    this.stopButton.hidden = !isStoppable(task.status);
    this.stopButton.setAttribute('aria-label', stopAriaLabel(task));
    this.resumeButton.hidden = !isResumable(task);
    this.resumeButton.setAttribute('aria-label', resumeAriaLabel(task));
    this.renderMeta(task, now);
    const reason = endReason(task) ?? '';
    setTextIfChanged(this.reason, reason);
    this.reason.hidden = reason === '';
    this.reason.className = `detail-reason reason-${task.status}`;
  }

  private renderMeta(task: ProtocolTask, now: number): void {
    const document = this.document;
    const entries: Array<[string, Node]> = [
      // Runs started from the palette run in the background of the task manager: only subtasks say so.
      [
        l10n.t('Status'),
        document.createTextNode(
          task.background && task.parentId !== null ? l10n.t('{0} (background)', statusText(task)) : statusText(task),
        ),
      ],
      [l10n.t('Model'), document.createTextNode(task.model ?? '—')],
      [l10n.t('Elapsed'), this.elapsedValue],
      [
        l10n.t('Tokens'),
        document.createTextNode(l10n.t('{0} in, {1} out', formatCount(task.usage.inputTokens), formatCount(task.usage.outputTokens))),
      ],
    ];
    const subtree = task.treeUsage.inputTokens !== task.usage.inputTokens || task.treeUsage.outputTokens !== task.usage.outputTokens;
    if (subtree) {
      entries.push([
        l10n.t('With subagents'),
        document.createTextNode(
          l10n.t('{0} in, {1} out', formatCount(task.treeUsage.inputTokens), formatCount(task.treeUsage.outputTokens)),
        ),
      ]);
    }
    if (task.budgetTokens !== undefined) {
      entries.push([
        l10n.t('Budget'),
        document.createTextNode(l10n.t('{0} of {1} tokens', formatCount(treeTokens(task)), formatCount(task.budgetTokens))),
      ]);
    }
    entries.push(...costEntries(task, subtree, document));
    const context = contextText(task);
    if (context !== undefined) entries.push(['Context', document.createTextNode(context)]);
    setTextIfChanged(this.elapsedValue, formatTaskElapsed(task, now) || '—');
    this.meta.replaceChildren(
      ...entries.flatMap(([term, value]) => [
        createElement(document, 'dt', { text: term }),
        value === this.elapsedValue ? value : createElement(document, 'dd', {}, [value]),
      ]),
    );
  }

  private renderResult(task: ProtocolTask, output: string): void {
    const heading = task.status === 'completed' ? l10n.t('Result') : l10n.t('Partial output');
    setTextIfChanged(this.resultHeading, heading);
    this.result.hidden = output === '';
    if (output === this.renderedOutput) return;
    this.renderedOutput = output;
    this.resultBody.replaceChildren(this.markdown.render(output));
  }
}

/** "Cost" (the task's own), "Cost with subagents" and the money budget, for tasks that used a model. */
function costEntries(task: ProtocolTask, subtree: boolean, document: Document): Array<[string, Node]> {
  if (!task.cost || !task.treeCost || treeTokens(task) === 0) return [];
  const text = (value: string) => document.createTextNode(value);
  return [
    [l10n.t('Cost'), text(formatCost(task.cost))],
    ...(subtree ? [[l10n.t('Cost with subagents'), text(formatCost(task.treeCost))] as [string, Node]] : []),
    ...(task.budgetUsd !== undefined
      ? [[l10n.t('Money budget'), text(l10n.t('{0} of ${1}', formatCost(task.treeCost), task.budgetUsd))] as [string, Node]]
      : []),
  ];
}
