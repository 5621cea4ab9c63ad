/**
 * The selected task's transcript: model text as Markdown, each tool call as a collapsible `<details>` with
 * its input (pretty JSON) and, once it arrives, its result; notices; and the text still streaming.
 * Appends incrementally: a render adds only the entries it has not shown yet, so a long transcript with
 * live streaming costs one text-node update per frame, not a rebuild. Streamed words can also be shown
 * between renders (`streamText`: an append to one text node), so they need no frame of their own.
 */
import { type ProtocolTranscriptEntry } from '../shared/protocol.js';
import { createElement, createIcon, setHidden, setTextIfChanged } from './dom.js';
import { type MarkdownRenderer } from './markdown.js';
import { type TranscriptState } from './store.js';
import { l10n } from './l10n.js';

/** Tool inputs and results longer than this are cut in the view (the host keeps them whole). Default 20,000. */
export const maxToolTextLength = 20_000;

export class TranscriptView {
  readonly element: HTMLElement;
  private readonly entriesElement: HTMLDivElement;
  private readonly streamingElement: HTMLDivElement;
  /** The streamed text's one node: words are appended to it, not written anew. */
  private readonly streamingNode: Text;
  private readonly statusElement: HTMLDivElement;
  private renderedEpoch = -1;
  private renderedCount = 0;
  private readonly toolCalls = new Map<string, HTMLDetailsElement>();

  constructor(
    private readonly document: Document,
    private readonly markdown: MarkdownRenderer,
  ) {
    this.entriesElement = createElement(document, 'div', { className: 'transcript-entries' });
    this.streamingElement = createElement(document, 'div', { className: 'transcript-streaming' });
    this.streamingNode = document.createTextNode('');
    this.streamingElement.append(this.streamingNode);
    this.streamingElement.hidden = true;
    this.statusElement = createElement(document, 'div', { className: 'transcript-status' });
    this.element = createElement(
      document,
      'section',
      { className: 'detail-section transcript', attributes: { 'aria-label': l10n.t('Transcript') } },
      [
        createElement(document, 'h3', { className: 'detail-heading', text: l10n.t('Transcript') }),
        this.entriesElement,
        this.streamingElement,
        this.statusElement,
      ],
    );
  }

  render(transcript: TranscriptState, expectedLength: number): void {
    if (transcript.epoch !== this.renderedEpoch || transcript.entries.length < this.renderedCount) {
      this.entriesElement.replaceChildren();
      this.toolCalls.clear();
      this.renderedCount = 0;
      this.renderedEpoch = transcript.epoch;
    }
    for (let index = this.renderedCount; index < transcript.entries.length; index++) {
      this.append(transcript.entries[index]);
    }
    this.renderedCount = transcript.entries.length;
    this.showStreaming(transcript.streamingText);
    const status =
      !transcript.received && expectedLength > 0
        ? l10n.t('Loading transcript…')
        : transcript.received && transcript.entries.length === 0 && transcript.streamingText === ''
          ? l10n.t('No steps yet.')
          : '';
    setTextIfChanged(this.statusElement, status);
    this.statusElement.hidden = status === '';
  }

  /**
   * Shows the transcript's streamed text now, if everything else of it is already shown as it is (same
   * transcript, its entries and status drawn); else returns false and a render must show it.
   */
  streamText(transcript: TranscriptState): boolean {
    if (transcript.epoch !== this.renderedEpoch || transcript.entries.length !== this.renderedCount || !this.statusElement.hidden)
      return false;
    this.showStreaming(transcript.streamingText);
    return true;
  }

  /** Appends what is new when the text grew (the usual case: one more chunk), else writes it whole. */
  private showStreaming(text: string): void {
    const shown = this.streamingNode.data;
    if (text !== shown) {
      if (shown !== '' && text.startsWith(shown)) this.streamingNode.appendData(text.slice(shown.length));
      else this.streamingNode.data = text;
    }
    setHidden(this.streamingElement, text === '');
  }

  private append(entry: ProtocolTranscriptEntry): void {
    const document = this.document;
    switch (entry.type) {
      case 'text': {
        const block = createElement(document, 'div', { className: 'transcript-text markdown' });
        block.append(this.markdown.render(entry.text));
        this.entriesElement.append(block);
        return;
      }
      case 'notice':
        this.entriesElement.append(
          createElement(document, 'div', { className: 'transcript-notice' }, [
            createIcon(document, 'codicon-info'),
            createElement(document, 'span', { text: entry.text }),
          ]),
        );
        return;
      case 'tool-call': {
        const details = createElement(document, 'details', { className: 'tool-call' }, [
          createElement(document, 'summary', {}, [
            createIcon(document, 'codicon-tools', 'tool-icon'),
            createElement(document, 'span', { className: 'tool-name', text: entry.toolName }),
            createElement(document, 'span', { className: 'tool-brief', text: briefInput(entry.input) }),
          ]),
          createElement(document, 'div', { className: 'tool-label', text: l10n.t('Input') }),
          createElement(document, 'pre', { className: 'tool-input', text: clip(prettyJson(entry.input)) }),
        ]);
        details.setAttribute('data-tool-call-id', entry.toolCallId);
        this.toolCalls.set(entry.toolCallId, details);
        this.entriesElement.append(details);
        return;
      }
      case 'tool-result': {
        let details = this.toolCalls.get(entry.toolCallId);
        if (!details) {
          // A result without its call (the call was before a cut): show it on its own.
          details = createElement(document, 'details', { className: 'tool-call' }, [
            createElement(document, 'summary', {}, [
              createIcon(document, 'codicon-tools', 'tool-icon'),
              createElement(document, 'span', { className: 'tool-name', text: entry.toolName }),
            ]),
          ]);
          this.entriesElement.append(details);
        }
        if (entry.isError) {
          details.classList.add('tool-error');
          details.querySelector('.tool-icon')?.classList.replace('codicon-tools', 'codicon-error');
        }
        details.append(
          createElement(document, 'div', { className: 'tool-label', text: entry.isError ? l10n.t('Error') : l10n.t('Result') }),
          createElement(document, 'pre', { className: 'tool-output', text: clip(entry.output) }),
        );
        return;
      }
    }
  }
}

/** `input` as indented JSON; `(no input)` when the model sent none that parsed. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '(no input)';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A one-line hint of what a tool call is about: its path, pattern or first string argument. */
function briefInput(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const record = input as Record<string, unknown>;
  for (const key of ['file_path', 'pattern', 'description', 'task_id', 'path']) {
    if (typeof record[key] === 'string') return String(record[key]).slice(0, 120);
  }
  const first = Object.values(record).find((value) => typeof value === 'string');
  return typeof first === 'string' ? first.slice(0, 120) : '';
}

function clip(text: string): string {
  if (text.length <= maxToolTextLength) return text;
  return `${text.slice(0, maxToolTextLength)}\n… (${(text.length - maxToolTextLength).toLocaleString('en-US')} more characters)`;
}
