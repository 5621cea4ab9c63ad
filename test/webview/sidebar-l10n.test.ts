// @vitest-environment jsdom
/**
 * The sidebar in the display language: the host puts VS Code's loaded bundle on #app (`data-l10n`), and
 * the sidebar's words come from it, English where a message has no translation; a table that is not
 * JSON leaves English rather than no sidebar. The page itself carries the table safely escaped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { renderWebviewHtml } from '../../src/shared/webview-html.js';
import { l10n, readStrings, setStrings } from '../../src/webview/l10n.js';
import { makeTask, mountHarness, snapshotMessage } from './support/harness.js';

afterEach(() => setStrings({}));

describe('sidebar translations', () => {
  it('says the tree, the rows\u2019 Stop and the detail in the bundle\u2019s words', () => {
    const holder = document.createElement('div');
    holder.dataset.l10n = JSON.stringify({
      'Agent tasks': 'Tâches des agents',
      'Stop {0}': 'Arrêter {0}',
      'Stop (Delete)': 'Arrêter (Suppr)',
      'Loading…': 'Chargement…',
    });
    readStrings(holder);
    const harness = mountHarness();
    expect(harness.root.querySelector('.loading')?.textContent).toBe('Chargement…');
    harness.send(snapshotMessage([makeTask({ id: 'run', role: 'researcher', description: 'Find usages' })]));
    expect(harness.root.querySelector('[role="tree"]')?.getAttribute('aria-label')).toBe('Tâches des agents');
    const stop = harness.row('run').querySelector('.tree-stop')!;
    expect(stop.getAttribute('aria-label')).toBe('Arrêter researcher: Find usages');
    expect(stop.getAttribute('title')).toBe('Arrêter (Suppr)');
    // No translation: English.
    expect(l10n.t('Resume run {0}', 'Find usages')).toBe('Resume run Find usages');
  });

  it('keeps English for a table that is not JSON or not strings', () => {
    const holder = document.createElement('div');
    holder.dataset.l10n = '{not json';
    readStrings(holder);
    setStrings({ Stop: 42 });
    expect(l10n.t('Stop')).toBe('Stop');
  });

  it('puts the table and the language in the page, escaped', () => {
    const html = renderWebviewHtml({
      cspSource: "'self'",
      nonce: 'abcdefabcdefabcdef',
      scriptUri: 'main.js',
      styleUri: 's.css',
      codiconUri: 'c.css',
      strings: { Stop: 'Stop" onload="x<' },
      language: 'pl',
    });
    expect(html).toContain('<html lang="pl">');
    expect(html).toContain('data-l10n="{&quot;Stop&quot;:&quot;Stop\\&quot; onload=\\&quot;x&lt;&quot;}"');
    expect(
      renderWebviewHtml({
        cspSource: "'self'",
        nonce: 'abcdefabcdefabcdef',
        scriptUri: 'main.js',
        styleUri: 's.css',
        codiconUri: 'c.css',
        language: '"><script>',
      }),
    ).toContain('<html lang="en">');
  });
});
