/** The selected task's change set: a "Review changes (+n −m)" button and Accept/Reject per file. */
import { type ChangeSummary, type WebviewMessage } from '../shared/protocol.js';
import { createButton, createElement } from './dom.js';
import { l10n } from './l10n.js';

export class ChangesView {
  readonly element: HTMLElement;
  private rendered: ChangeSummary | undefined;

  constructor(
    private readonly document: Document,
    private readonly post: (message: WebviewMessage) => void,
  ) {
    this.element = createElement(document, 'section', {
      className: 'detail-section changes',
      attributes: { 'aria-label': l10n.t('Changes') },
    });
    this.element.hidden = true;
  }

  render(summary: ChangeSummary | undefined): void {
    if (summary === this.rendered) return;
    this.rendered = summary;
    this.element.replaceChildren();
    this.element.hidden = summary === undefined;
    if (!summary) return;
    const document = this.document;
    const review = createButton(document, l10n.t('Review changes (+{0} \u2212{1})', summary.added, summary.removed), {
      icon: 'codicon-diff',
      className: 'review-changes',
    });
    review.addEventListener('click', () => this.post({ type: 'review-changes', taskId: summary.taskId }));
    const pending =
      summary.pending > 0 ? l10n.t('{0} of {1} files pending review', summary.pending, summary.files.length) : l10n.t('All files reviewed');
    const list = createElement(document, 'ul', { className: 'change-files' });
    for (const file of summary.files) list.append(this.fileItem(summary.taskId, file));
    this.element.append(review, createElement(document, 'div', { className: 'changes-pending', text: pending }), list);
  }

  private fileItem(taskId: string, file: ChangeSummary['files'][number]): HTMLLIElement {
    const document = this.document;
    const stats = createElement(document, 'span', { className: 'change-stats', text: `+${file.added} \u2212${file.removed}` });
    if (file.status !== 'pending') {
      const path = createElement(document, 'span', { className: 'change-path', text: file.path, attributes: { title: file.path } });
      const item = createElement(
        document,
        'li',
        { className: `change-file change-${file.status}`, attributes: { 'data-path': file.path } },
        [path, stats, createElement(document, 'span', { className: 'change-status', text: file.status })],
      );
      if (file.status === 'accepted' || file.status === 'undone') item.append(this.undoButton(taskId, file.path, file.status));
      return item;
    }
    // A pending file's name opens its diff, as a file in the Source Control view does.
    const path = createElement(document, 'button', {
      className: 'change-path link-button',
      text: file.path,
      attributes: { type: 'button', title: l10n.t('Open the diff of {0}', file.path) },
    });
    path.addEventListener('click', () => this.post({ type: 'open-diff', taskId, path: file.path }));
    const item = createElement(document, 'li', { className: `change-file change-${file.status}`, attributes: { 'data-path': file.path } }, [
      path,
      stats,
    ]);
    const accept = createButton(document, l10n.t('Accept'), {
      secondary: true,
      ariaLabel: l10n.t('Accept {0}', file.path),
      className: 'accept-file',
    });
    accept.addEventListener('click', () => this.post({ type: 'accept-file', taskId, path: file.path }));
    const reject = createButton(document, l10n.t('Reject'), {
      secondary: true,
      ariaLabel: l10n.t('Reject {0}', file.path),
      className: 'reject-file',
    });
    reject.addEventListener('click', () => this.post({ type: 'reject-file', taskId, path: file.path }));
    item.append(accept, reject);
    return item;
  }

  /** Undo Accepted Changes of this file; on an undone file it takes the undo back. */
  private undoButton(taskId: string, path: string, status: 'accepted' | 'undone'): HTMLButtonElement {
    const label = status === 'accepted' ? 'Undo' : 'Redo';
    const button = createButton(this.document, label, {
      secondary: true,
      ariaLabel: `${label} the accepted change to ${path}`,
      className: 'undo-file',
    });
    button.addEventListener('click', () => this.post({ type: 'undo-file', taskId, path }));
    return button;
  }
}
