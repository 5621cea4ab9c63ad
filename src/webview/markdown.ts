/**
 * Model output as sanitized Markdown. Model text is untrusted: it may carry a prompt-injected payload
 * meant to run script, exfiltrate data through an image URL, or pose as the sidebar's own controls. So:
 * - raw HTML in the Markdown is shown as text, never parsed (marked's `html` renderer escapes it);
 * - DOMPurify then removes anything executable (script, event handlers, javascript: URLs) as a second line;
 * - every image whose source is not a `data:image/…` URI is replaced by its alt text (the CSP blocks remote
 *   images too);
 * - no forms, iframes, styles, classes, ids, roles, ARIA or data attributes (nothing can pose as a row);
 * - links lose their `href`: allowed ones (http, https) keep the address in `data-href` and are
 *   opened by the host after the user confirms (`bindLinkHandler`); the rest become plain text.
 */
import DOMPurify, { type Config } from 'dompurify';
import { Marked } from 'marked';
import { isAllowedLink, type WebviewMessage } from '../shared/protocol.js';

const dataImage = /^data:image\/(png|jpe?g|gif|webp);/i;

const sanitizeConfig: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'link',
    'meta',
    'base',
    'audio',
    'video',
    'source',
    'track',
    'picture',
    'dialog',
    'template',
  ],
  FORBID_ATTR: ['style', 'class', 'id', 'name', 'role', 'tabindex', 'srcset', 'target', 'action', 'formaction', 'ping'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

export class MarkdownRenderer {
  private readonly purifier: ReturnType<typeof DOMPurify>;
  private readonly marked: Marked;
  private readonly document: Document;

  constructor(window: Window) {
    this.document = window.document;
    this.purifier = DOMPurify(window as unknown as Parameters<typeof DOMPurify>[0]);
    this.marked = new Marked({
      gfm: true,
      async: false,
      renderer: {
        html: ({ text }) => escapeHtml(text),
        image: ({ href, text }) => (dataImage.test(href) ? false : escapeHtml(text)),
      },
    });
  }

  /** Renders Markdown `text` into a fragment that is safe to insert. */
  render(text: string): DocumentFragment {
    return this.sanitize(this.marked.parse(text, { async: false }));
  }

  /** The second line of defence on its own: HTML in, a fragment without anything active or remote out. */
  sanitize(html: string): DocumentFragment {
    const sanitized = this.purifier.sanitize(html, sanitizeConfig);
    const template = this.document.createElement('template');
    template.innerHTML = sanitized;
    const fragment = template.content;
    this.neutralizeImages(fragment);
    this.neutralizeLinks(fragment);
    return this.document.importNode(fragment, true);
  }

  private neutralizeImages(root: DocumentFragment): void {
    for (const image of Array.from(root.querySelectorAll('img'))) {
      const source = image.getAttribute('src') ?? '';
      if (dataImage.test(source)) continue;
      image.replaceWith(this.document.createTextNode(image.getAttribute('alt') ?? ''));
    }
  }

  private neutralizeLinks(root: DocumentFragment): void {
    for (const anchor of Array.from(root.querySelectorAll('a'))) {
      const href = anchor.getAttribute('href') ?? '';
      anchor.removeAttribute('href');
      if (isAllowedLink(href)) {
        anchor.setAttribute('data-href', href);
        anchor.setAttribute('role', 'link');
        anchor.setAttribute('tabindex', '0');
        anchor.setAttribute('title', href);
        anchor.className = 'markdown-link';
      } else {
        anchor.replaceWith(...Array.from(anchor.childNodes));
      }
    }
  }
}

/**
 * Opens Markdown links through the host: a click or Enter on an element with `data-href` under `root`
 * posts `open-link` (the host asks the user first). Returns a function that removes the listeners.
 */
export function bindLinkHandler(root: HTMLElement, post: (message: WebviewMessage) => void): () => void {
  const open = (event: Event) => {
    const link = (event.target as Element | null)?.closest?.('[data-href]');
    if (!link || !root.contains(link)) return;
    event.preventDefault();
    const url = link.getAttribute('data-href') ?? '';
    if (isAllowedLink(url)) post({ type: 'open-link', url });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') open(event);
  };
  root.addEventListener('click', open);
  root.addEventListener('keydown', onKeyDown);
  return () => {
    root.removeEventListener('click', open);
    root.removeEventListener('keydown', onKeyDown);
  };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
