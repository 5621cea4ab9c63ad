/**
 * How full a task's context window is, as the sidebar shows it: a thin bar under a row's figures once the
 * window is more than half full (drawn by CSS from two properties of the figures element, so a row keeps
 * its five elements), and a line in the detail view.
 */
import type { ProtocolTask } from '../shared/protocol.js';
import { formatTokens } from './format.js';
import { l10n } from './l10n.js';

/** Past this fraction of the window a row shows its bar: below it the figure would be noise. */
export const rowBarFrom = 0.5;

/** The fraction of the window the last request filled (0 to 1); undefined when the window is unknown. */
export function contextFraction(task: ProtocolTask): number | undefined {
  const window = task.context?.windowTokens;
  return window ? Math.min(1, task.context!.usedTokens / window) : undefined;
}

/** `63 % of 200k tokens (126k)`, or `126k tokens` when the window is unknown; undefined before any request. */
export function contextText(task: ProtocolTask): string | undefined {
  if (!task.context) return undefined;
  const fraction = contextFraction(task);
  if (fraction === undefined) return l10n.t('{0} tokens', formatTokens(task.context.usedTokens));
  return l10n.t(
    '{0} % of {1} tokens ({2})',
    Math.round(fraction * 100),
    formatTokens(task.context.windowTokens!),
    formatTokens(task.context.usedTokens),
  );
}

/** Sets or clears the row's bar: `data-context` (the percentage, for CSS and tests) and `--context-fill`. */
export function updateContextBar(figures: HTMLElement, task: ProtocolTask): void {
  const fraction = contextFraction(task);
  const shown = fraction !== undefined && fraction > rowBarFrom && !isEnded(task) ? String(Math.round(fraction * 100)) : null;
  if (figures.getAttribute('data-context') === shown) return;
  if (shown === null) {
    figures.removeAttribute('data-context');
    figures.style.removeProperty('--context-fill');
  } else {
    figures.setAttribute('data-context', shown);
    figures.style.setProperty('--context-fill', `${shown}%`);
  }
}

/** An ended task's window no longer fills: its bar goes (the detail view keeps the figure). */
function isEnded(task: ProtocolTask): boolean {
  return task.status !== 'running' && task.status !== 'waiting' && task.status !== 'queued';
}
