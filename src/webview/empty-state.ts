/**
 * What the sidebar shows without tasks, and the Restricted Mode banner:
 * - Restricted Mode: agents do not run; how to trust the folder.
 * - No model configured: use a model VS Code offers (first: no key), or choose a provider and set a key
 *   (or use a detected local server).
 * - Ready: a "Delegate Task" button.
 */
import { type SetupState, type WebviewMessage } from '../shared/protocol.js';
import { createButton, createElement, createIcon } from './dom.js';
import { l10n } from './l10n.js';

export class EmptyStateView {
  readonly element: HTMLElement;
  private rendered: string | undefined;

  constructor(
    private readonly document: Document,
    private readonly post: (message: WebviewMessage) => void,
  ) {
    this.element = createElement(document, 'div', {
      className: 'empty-state',
      attributes: { role: 'region', 'aria-label': l10n.t('Get started') },
    });
  }

  render(setup: SetupState): void {
    const key = JSON.stringify(setup);
    if (key === this.rendered) return;
    this.rendered = key;
    const document = this.document;
    const parts: Node[] = [];
    if (setup.restricted) {
      parts.push(restrictedMessage(document, this.post));
    } else if (!setup.modelConfigured) {
      if (setup.languageModel) {
        // Offered first: it needs no key, and VS Code asks the user before Agent Team may use it.
        parts.push(
          paragraph(
            document,
            l10n.t('VS Code already offers a language model: {0}. Agent Team can use it without an API key.', setup.languageModel),
          ),
          this.actions([[l10n.t('Use {0}', setup.languageModel), { type: 'use-language-model' }, false, 'codicon-sparkle']]),
        );
      }
      parts.push(
        paragraph(
          document,
          l10n.t('Agent Team delegates coding tasks to a team of AI agents. To start, choose a model provider and set its API key.'),
        ),
        this.actions([
          [l10n.t('Set API Key'), { type: 'run-command', command: 'agentTeam.setApiKey' }, Boolean(setup.languageModel), 'codicon-key'],
          [l10n.t('Select Model'), { type: 'run-command', command: 'agentTeam.selectModel' }, true, 'codicon-sparkle'],
          [l10n.t('Open Walkthrough'), { type: 'run-command', command: 'workbench.action.openWalkthrough' }, true, 'codicon-book'],
        ]),
      );
      if (setup.localServerUrl) {
        parts.push(
          paragraph(
            document,
            l10n.t('An OpenAI-compatible server is running on this machine at {0}. You can use it without a key.', setup.localServerUrl),
          ),
          this.actions([[l10n.t('Use Local Server'), { type: 'use-local-server' }, true, 'codicon-server']]),
        );
      }
    } else {
      const intro = setup.model
        ? l10n.t(
            'No tasks yet. Delegate a task and a team of agents will work on it with {0}; you review their edits before anything is written.',
            modelLabel(setup),
          )
        : l10n.t('No tasks yet. Delegate a task and a team of agents will work on it; you review their edits before anything is written.');
      parts.push(
        paragraph(document, intro),
        this.actions([
          [l10n.t('Delegate Task'), { type: 'delegate' }, false, 'codicon-add'],
          [l10n.t('Select Model'), { type: 'run-command', command: 'agentTeam.selectModel' }, true, 'codicon-sparkle'],
        ]),
      );
    }
    this.element.replaceChildren(...parts);
  }

  private actions(buttons: Array<[string, WebviewMessage, boolean, string]>): HTMLElement {
    const container = createElement(this.document, 'div', { className: 'empty-actions' });
    for (const [label, message, secondary, icon] of buttons) {
      const button = createButton(this.document, label, { secondary, icon });
      button.addEventListener('click', () => this.post(message));
      container.append(button);
    }
    return container;
  }
}

/** The Restricted Mode notice, shown as the empty state and as a banner above existing tasks. */
export function restrictedMessage(document: Document, post: (message: WebviewMessage) => void): HTMLElement {
  const manage = createButton(document, l10n.t('Manage Workspace Trust'), { secondary: true, icon: 'codicon-shield' });
  manage.addEventListener('click', () => post({ type: 'run-command', command: 'workbench.trust.manage' }));
  return createElement(document, 'div', { className: 'restricted', attributes: { role: 'note' } }, [
    createElement(document, 'p', {}, [
      createIcon(document, 'codicon-workspace-untrusted'),
      document.createTextNode(
        ' Agents don\u2019t run in Restricted Mode. Trust this folder to let Agent Team read it and propose edits: run "Workspaces: Manage Workspace Trust" and choose Trust.',
      ),
    ]),
    createElement(document, 'div', { className: 'empty-actions' }, [manage]),
  ]);
}

/** `anthropic/claude-sonnet-5-5`; VS Code's models by their own name: `GPT-5 (VS Code)`. */
function modelLabel(setup: SetupState): string {
  if (setup.provider === 'vscode-lm') return `${setup.model} (VS Code)`;
  return `${setup.provider ? `${setup.provider}/` : ''}${setup.model}`;
}

function paragraph(document: Document, text: string): HTMLParagraphElement {
  return createElement(document, 'p', { text });
}
