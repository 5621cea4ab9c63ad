/**
 * The common encodings of a configured secret, for `redactKnownSecrets` (secrets.ts): a key printed by a
 * command or echoed by a server seldom travels only as itself. A guard against accidents (a debug line
 * that prints the `Authorization: Basic …` header, a proxy's echo of a URL-encoded query, a hex dump), not
 * against a determined command: anything that can run code can encrypt, split or XOR a key past any
 * matcher. The sandbox is the guard there: commands never get the keys (child-environment.ts).
 *
 * The forms, each of the value as the user configured it:
 * - URL-encoded (as `encodeURIComponent` writes it, and with every byte percent-encoded, in either case);
 * - hex, lower and upper case; reversed;
 * - base64 and base64url, also inside a longer encoded text such as `base64(user:value)`. What comes before
 *   the value shifts it by 0, 1 or 2 bytes within base64's 3-byte groups, and each shift encodes it
 *   differently; at each shift, the characters that hold only the value's bits are the same whatever
 *   surrounds it (the first and last characters, which mix in the neighbours' bits, are left out). A
 *   match of one of those cores redacts the whole run of base64 characters around it: the user part and
 *   the padding go with it.
 * Computed once per set of secrets (`compileSecrets`), since this runs on every tool result.
 */

export interface CompiledSecrets {
  /** Replaced wherever they appear, longest first: the values and their exact encodings. */
  readonly exact: readonly string[];
  /** Base64 and base64url cores: a match redacts the run of base64 characters around it. */
  readonly base64Cores: readonly string[];
  /**
   * Matches any of them: one pass over a text that holds none (nearly every text) instead of one per
   * form; about as fast as the search for the plain values alone was (see `redactKnownSecrets`).
   */
  readonly anyForm: RegExp | undefined;
}

/** Every form of the values (each already long enough to be redacted), compiled for the redactor. */
export function compileSecrets(values: readonly string[]): CompiledSecrets {
  const exact = new Set<string>();
  const base64Cores = new Set<string>();
  for (const value of values) {
    exact.add(value);
    for (const form of exactForms(value)) exact.add(form);
    for (const core of base64CoresOf(Buffer.from(value, 'utf8'))) base64Cores.add(core);
  }
  const every = [...exact, ...base64Cores];
  return {
    exact: [...exact].sort((a, b) => b.length - a.length),
    base64Cores: [...base64Cores].sort((a, b) => b.length - a.length),
    anyForm: every.length === 0 ? undefined : new RegExp(every.map(escapeRegExp).join('|')),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function exactForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  const percentEncoded = hex.replace(/../g, '%$&');
  return [encodeURIComponent(value), hex, hex.toUpperCase(), percentEncoded, percentEncoded.toUpperCase(), [...value].reverse().join('')];
}

/**
 * The value's base64 at each of the three shifts, without the characters that mix in a neighbour's bits;
 * in both alphabets (base64url writes `-` and `_` for `+` and `/`).
 */
function base64CoresOf(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Character i holds bits [6i, 6i + 6): only those wholly inside the value's bits are kept.
    const first = Math.ceil((shift * 8) / 6);
    const end = Math.floor(((shift + bytes.length) * 8) / 6);
    const core = encoded.slice(first, end);
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** Base64 and base64url characters and padding: what a match's run is made of. */
const base64Character = /[A-Za-z0-9+/=_-]/;

/** `text` with every run of base64 characters that holds one of `cores` replaced by `marker`. */
export function redactBase64Runs(text: string, cores: readonly string[], marker: string): string {
  let result = text;
  for (const core of cores) {
    let from = result.indexOf(core);
    while (from !== -1) {
      let start = from;
      let end = from + core.length;
      while (start > 0 && base64Character.test(result[start - 1])) start--;
      while (end < result.length && base64Character.test(result[end])) end++;
      result = `${result.slice(0, start)}${marker}${result.slice(end)}`;
      from = result.indexOf(core, start + marker.length);
    }
  }
  return result;
}
