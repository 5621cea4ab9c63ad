/** What the extension says goes through vscode.l10n, so a display language's bundle translates it. */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fake } from './support/fake-vscode.js';
import { useExtensionWorld } from './support/extension-world.js';

vi.mock('vscode', () => import('./support/fake-vscode.js'));

const world = useExtensionWorld();

describe('localized messages', () => {
  it('notifications and pickers are looked up in the translation bundle, with their values filled in', async () => {
    fake.state.translations.set('Set API Key: which provider?', 'Définir la clé API : quel fournisseur ?');
    fake.state.translations.set('Set API Key: {0}', 'Définir la clé API : {0}');
    fake.state.translations.set('Saved the {0} API key.', 'Clé API {0} enregistrée.');
    fake.state.quickPickAnswers.push(({ items, options }) => {
      expect(options.title).toBe('Définir la clé API : quel fournisseur ?');
      return items[1];
    });
    fake.state.inputBoxAnswers.push((options) => {
      expect(options.title).toBe('Définir la clé API : OpenAI');
      return 'sk-test-key';
    });
    await world.extension.execute('agentTeam.setApiKey');
    expect(fake.state.messages.at(-1)!.message).toBe('Clé API OpenAI enregistrée.');
  });

  it('the manifest\u2019s strings come from package.nls.json (a package.nls.<language>.json translates them)', () => {
    const manifest = readFileSync(nodePath.join(__dirname, '../../package.json'), 'utf8');
    expect(manifest).toContain('"title": "%command.delegate.title%"');
  });
});
