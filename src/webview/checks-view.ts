/**
 * A run's checks in the sidebar (issue 40): the badge in the run's row and the "Checks" section of its
 * detail view. The badge needs no element of its own (a row keeps to five): the figures span carries
 * `data-checks` (the tone) and `data-checks-label` (a short text, which media/sidebar.css draws before
 * the figures: "✗ 1 new failure"), and the row's accessible name gains ", checks: <headline>", names and all.
 *
 * DOM contract (tests and the e2e suite select on it): `.tree-figures[data-checks][data-checks-label]`;
 * the detail's `section.checks[aria-label="Checks"]` with `.checks-summary` (a polite live region),
 * `li.check-result[data-check-name][data-status]` per check, and the `.run-checks` button ("Run Checks
 * Again") posting `{type: 'run-checks', taskId: <run id>}`.
 */
import { checkLine, checksBadgeText, checksHeadline, checksTone, worthShowing } from '../shared/checks-text.js';
import { type ProtocolCheckResult, type RunChecks, type WebviewMessage } from '../shared/protocol.js';
import { createButton, createElement, setAttributeIfChanged, setTextIfChanged } from './dom.js';
import { formatElapsed } from './format.js';
import { l10n } from './l10n.js';

/** Sets (or clears) the run's badge on its row's figures span. */
export function updateChecksBadge(figures: HTMLElement, run: RunChecks | undefined): void {
  const shown = worthShowing(run) ? run : undefined;
  setAttributeIfChanged(figures, 'data-checks', shown ? checksTone(shown) : null);
  setAttributeIfChanged(figures, 'data-checks-label', shown ? checksBadgeText(shown) : null);
}

/** What the row's accessible name adds: ", checks: 1 new failure: math › adds" (nothing without checks). */
export function checksAriaSuffix(run: RunChecks | undefined): string {
  return worthShowing(run) ? `, checks: ${checksHeadline(run)}` : '';
}

const toneIcons: Readonly<Record<ReturnType<typeof checksTone>, string>> = {
  running: 'codicon-loading codicon-modifier-spin',
  passed: 'codicon-pass',
  'new-failures': 'codicon-error',
  'not-run': 'codicon-circle-slash',
};

const statusIcons: Readonly<Record<ProtocolCheckResult['status'], string>> = {
  passed: 'codicon-pass',
  failed: 'codicon-error',
  'timed-out': 'codicon-watch',
  error: 'codicon-warning',
  skipped: 'codicon-circle-slash',
  refused: 'codicon-lock',
};

export class ChecksView {
  readonly element: HTMLElement;
  private readonly icon: HTMLSpanElement;
  private readonly summary: HTMLParagraphElement;
  private readonly list: HTMLUListElement;
  private rendered: RunChecks | undefined;
  private runId: string | undefined;

  constructor(
    private readonly document: Document,
    post: (message: WebviewMessage) => void,
  ) {
    this.icon = createElement(document, 'span', { className: 'codicon', attributes: { 'aria-hidden': 'true' } });
    // Polite: "checks running…" becoming the verdict is read out without taking the user's focus.
    this.summary = createElement(document, 'p', { className: 'checks-summary', attributes: { role: 'status', 'aria-live': 'polite' } });
    const again = createButton(document, l10n.t('Run Checks Again'), { secondary: true, icon: 'codicon-refresh', className: 'run-checks' });
    again.addEventListener('click', () => {
      if (this.runId !== undefined) post({ type: 'run-checks', taskId: this.runId });
    });
    const heading = createElement(document, 'h3', { className: 'detail-heading checks-heading' }, [
      this.icon,
      document.createTextNode(' Checks'),
    ]);
    this.list = createElement(document, 'ul', { className: 'check-results' });
    this.element = createElement(
      document,
      'section',
      { className: 'detail-section checks', attributes: { 'aria-label': l10n.t('Checks') } },
      [heading, this.summary, this.list, again],
    );
    this.element.hidden = true;
  }

  /** Shows the run's checks; nothing (hidden) for a task that heads no run or a run without checks. */
  render(run: RunChecks | undefined): void {
    if (run === this.rendered) return;
    this.rendered = run;
    this.runId = run?.runId;
    this.element.hidden = run === undefined;
    if (!run) return;
    const tone = checksTone(run);
    this.icon.className = `codicon ${toneIcons[tone]} checks-tone-${tone}`;
    this.element.setAttribute('data-checks', tone);
    setTextIfChanged(
      this.summary,
      run.state === 'running' ? `Running checks\u2026${run.results.length > 0 ? ' (below: the last verdict)' : ''}` : run.summary,
    );
    this.list.replaceChildren(...run.results.map((result) => this.resultItem(result, run.state === 'running')));
  }

  private resultItem(result: ProtocolCheckResult, stale: boolean): HTMLLIElement {
    const document = this.document;
    const line = createElement(document, 'span', { className: 'check-line', text: checkLine(result) });
    const duration = createElement(document, 'span', { className: 'check-duration', text: formatElapsed(result.durationMs) });
    const icon = createElement(document, 'span', {
      className: `codicon ${statusIcons[result.status]} check-status-${result.status}`,
      attributes: { 'aria-hidden': 'true' },
    });
    const item = createElement(
      document,
      'li',
      {
        className: `check-result${stale ? ' check-stale' : ''}`,
        attributes: { 'data-check-name': result.name, 'data-status': result.status },
      },
      [icon, line, duration],
    );
    if (result.newFailureCount > 0)
      item.append(this.names(l10n.t('New failures'), result.newFailures, result.newFailureCount, 'check-new-failures'));
    if (result.fixedCount > 0) item.append(this.names(l10n.t('Fixed'), result.fixed, result.fixedCount, 'check-fixed'));
    if (result.output !== undefined && result.output !== '') {
      item.append(
        createElement(document, 'details', { className: 'check-output' }, [
          createElement(document, 'summary', { text: l10n.t('Output (its end)') }),
          createElement(document, 'pre', { text: result.output }),
        ]),
      );
    }
    return item;
  }

  private names(title: string, names: readonly string[], count: number, className: string): HTMLElement {
    const document = this.document;
    const items = names.map((name) => createElement(document, 'li', { text: name }));
    if (count > names.length) items.push(createElement(document, 'li', { text: `and ${count - names.length} more` }));
    return createElement(document, 'div', { className }, [
      createElement(document, 'span', { text: `${title}:` }),
      createElement(document, 'ul', {}, items),
    ]);
  }
}
