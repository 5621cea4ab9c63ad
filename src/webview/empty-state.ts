/**
 * What the sidebar shows without tasks, and the Restricted Mode banner:
 * - Restricted Mode: agents do not run; how to trust the folder.
 * - No model configured: use a model VS Code offers (first: no key), or choose a provider and set a key
 *   (or use a detected local server).
 * - Ready: a "Delegate Task" button.
 */
import { type SetupState, type WebviewMessage } from '../shared/protocol.js';
import { createButton, createElement, createIcon } from './dom.js';

export class EmptyStateView {
  readonly element: HTMLElement;
  private rendered: string | undefined;

  constructor(
    private readonly document: Document,
    private readonly post: (message: WebviewMessage) => void,
  ) {
    this.element = createElement(document, 'div', { className: 'empty-state', attributes: { role: 'region', 'aria-label': 'Get started' } });
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
          paragraph(document, `VS Code already offers a language model: ${setup.languageModel}. Agent Team can use it without an API key.`),
          this.actions([['Use ' + setup.languageModel, { type: 'use-language-model' }, false, 'codicon-sparkle']]),
        );
      }
      parts.push(
        paragraph(document, 'Agent Team delegates coding tasks to a team of AI agents. To start, choose a model provider and set its API key.'),
        this.actions([
          ['Set API Key', { type: 'run-command', command: 'agentTeam.setApiKey' }, Boolean(setup.languageModel), 'codicon-key'],
          ['Select Model', { type: 'run-command', command: 'agentTeam.selectModel' }, true, 'codicon-sparkle'],
          ['Open Walkthrough', { type: 'run-command', command: 'workbench.action.openWalkthrough' }, true, 'codicon-book'],
        ]),
      );
      if (setup.localServerUrl) {
        parts.push(
          paragraph(document, `An OpenAI-compatible server is running on this machine at ${setup.localServerUrl}. You can use it without a key.`),
          this.actions([['Use Local Server', { type: 'use-local-server' }, true, 'codicon-server']]),
        );
      }
    } else {
      const model = setup.model ? ` with ${modelLabel(setup)}` : '';
      parts.push(
        paragraph(document, `No tasks yet. Delegate a task and a team of agents will work on it${model}; you review their edits before anything is written.`),
        this.actions([
          ['Delegate Task', { type: 'delegate' }, false, 'codicon-add'],
          ['Select Model', { type: 'run-command', command: 'agentTeam.selectModel' }, true, 'codicon-sparkle'],
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
  const manage = createButton(document, 'Manage Workspace Trust', { secondary: true, icon: 'codicon-shield' });
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
