/**
 * What a fetched page reads as for an agent: HTML as Markdown (turndown, loaded on first use from its own
 * bundle), text and JSON as they are; anything else (images, archives) is named, not shown.
 */

/** The text of a response body, or undefined when its type is not text. */
export async function pageText(body: Buffer, contentType: string): Promise<string | undefined> {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const text = body.toString('utf8');
  if (type === 'text/html' || type === 'application/xhtml+xml' || (type === '' && /^\s*<(!doctype html|html)/i.test(text)))
    return htmlToMarkdown(text);
  if (
    type === '' ||
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/xml' ||
    type.endsWith('+xml')
  )
    return text;
  return undefined;
}

let converter: Promise<(html: string) => string> | undefined;

async function htmlToMarkdown(html: string): Promise<string> {
  converter ??= import('turndown').then(({ default: TurndownService }) => {
    const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    // What a reader of the page does not see is not the page's text.
    const hidden = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'IFRAME', 'SVG', 'CANVAS', 'HEAD']);
    service.remove((node) => hidden.has(node.nodeName.toUpperCase()));
    return (page: string) => service.turndown(page);
  });
  return (await converter)(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
