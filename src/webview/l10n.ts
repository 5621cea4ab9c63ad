/**
 * The sidebar's translations: the host hands it VS Code's loaded bundle for the display language
 * (`vscode.l10n.bundle`, English messages to translated ones) in the page (`data-l10n` on #app), and
 * every user-facing string of the sidebar is said through `l10n.t`, as the extension's are through
 * `vscode.l10n.t`. The same messages are in l10n/bundle.l10n.json (scripts/l10n-bundle.mjs reads both).
 * A message without a translation reads as written, in English.
 */
let strings: ReadonlyMap<string, string> = new Map();

/** Takes the table the host sent; anything that is not an object of strings to strings is ignored. */
export function setStrings(table: unknown): void {
  if (typeof table !== 'object' || table === null || Array.isArray(table)) return;
  strings = new Map(Object.entries(table).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** Reads the table from the element the host put it on (`data-l10n`, JSON); a bad one leaves English. */
export function readStrings(element: HTMLElement): void {
  const text = element.dataset.l10n;
  if (!text) return;
  try {
    setStrings(JSON.parse(text));
  } catch {
    // English, rather than no sidebar.
  }
}

export const l10n = {
  /** `message` translated, its `{0}`, `{1}`… filled with `args` (as `vscode.l10n.t` does). */
  t(message: string, ...args: Array<string | number>): string {
    const translated = strings.get(message) ?? message;
    return translated.replace(/\{(\d+)\}/g, (whole, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : whole));
  },
};
