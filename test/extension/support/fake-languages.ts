/** The fake `vscode` module's `languages` (code lenses, diagnostics), `l10n` and `env`. */
import * as nodePath from 'node:path';
import { Disposable, type Uri } from './fake-basics.js';
import { type FakeCodeLensProvider, fake, track } from './fake-state.js';

export const languages = {
  registerCodeLensProvider(selector: { scheme?: string }, provider: FakeCodeLensProvider): Disposable {
    const entry = { selector, provider };
    fake.state.codeLensProviders.push(entry);
    return track(
      new Disposable(() => fake.state.codeLensProviders.splice(fake.state.codeLensProviders.indexOf(entry), 1)),
      `code lens provider ${selector.scheme ?? '*'}`,
    );
  },
  createDiagnosticCollection(name: string) {
    const files = new Map<string, Array<{ message: string; severity: number; line: number; source?: string }>>();
    fake.state.diagnostics.set(name, files);
    return {
      name,
      set(uri: Uri, diagnostics: Array<{ message: string; severity: number; range: { start: { line: number } }; source?: string }>) {
        files.set(
          uri.toString(),
          diagnostics.map((entry) => ({
            message: entry.message,
            severity: entry.severity,
            line: entry.range.start.line,
            ...(entry.source ? { source: entry.source } : {}),
          })),
        );
      },
      clear() {
        files.clear();
      },
      dispose() {
        fake.state.diagnostics.delete(name);
      },
    };
  },
};

export const l10n = {
  t(message: string, ...args: unknown[]): string {
    const translated = fake.state.translations.get(message) ?? message;
    return translated.replace(/\{(\d+)\}/g, (whole, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : whole));
  },
};

export const env = {
  appRoot: nodePath.join(__dirname, 'no-vscode-app-root'),
  clipboard: {
    async writeText(text: string) {
      fake.state.clipboard = text;
    },
  },
  async openExternal(uri: Uri) {
    fake.state.openedExternal.push(uri.toString());
    return true;
  },
};
