/**
 * The CLI's options that capabilities declare (`capabilityDescriptors`): which flags exist and of which
 * kind, their values parsed into the settings keyed by capability, and their lines of `--help`. A setting
 * a descriptor gives a CLI option appears here without a line of this file changing.
 */
import {
  capabilityDescriptors,
  type CapabilitySettings,
  type CliOption,
  declaredSettings,
  defaultCapabilitySettings,
  InvalidSettingError,
} from '../engine/index.js';
import type { ParsedOptions } from './history-arguments.js';
import { UsageError } from './usage-error.js';

interface DeclaredOption {
  capability: string;
  setting: string;
  option: CliOption<unknown>;
}

/** Every capability's CLI option, in the list's order (the order of --help). */
export const declaredOptions: readonly DeclaredOption[] = declaredSettings(capabilityDescriptors).flatMap(({ capability, name, setting }) =>
  (setting.cli ?? []).map((option) => ({ capability, setting: name, option })),
);

/** The flags of one kind, for the parser's tables. */
export function capabilityFlags(kind: CliOption<unknown>['kind']): string[] {
  return declaredOptions.filter(({ option }) => option.kind === kind).map(({ option }) => option.flag);
}

/** The settings as the command line gives them: each one's default unless one of its options was given. */
export function capabilitySettings(parsed: Pick<ParsedOptions, 'values' | 'repeated' | 'flags'>): CapabilitySettings {
  const settings = defaultCapabilitySettings() as Record<string, Record<string, unknown>>;
  for (const { capability, setting, option } of declaredOptions) {
    const texts = givenTexts(parsed, option);
    if (texts === undefined) continue;
    try {
      settings[capability]![setting] = option.kind === 'switch' ? option.sets : option.parse ? option.parse(texts) : valueOf(option, texts);
    } catch (error) {
      if (error instanceof InvalidSettingError) throw new UsageError(error.message);
      throw error;
    }
  }
  return settings as CapabilitySettings;
}

/** What the user gave for an option: undefined when not given; a switch gives no text. */
function givenTexts({ values, repeated, flags }: Pick<ParsedOptions, 'values' | 'repeated' | 'flags'>, option: CliOption<unknown>) {
  if (option.kind === 'switch') return flags.has(option.flag) ? [] : undefined;
  if (option.kind === 'repeatable') return repeated.get(option.flag);
  const value = values.get(option.flag);
  return value === undefined ? undefined : [value];
}

/** Without a parse: a repeatable option's texts as a list, a value option's text as it is. */
function valueOf(option: CliOption<unknown>, texts: readonly string[]): unknown {
  return option.kind === 'repeatable' ? [...texts] : texts[0];
}

const helpIndent = 36;
const helpWidth = 104;

/** `--allow-domain <host>`, as --help names an option. */
function optionSignature(option: CliOption<unknown>): string {
  return option.kind === 'switch' ? option.flag : `${option.flag} ${option.argument ?? '<value>'}`;
}

/** The options' lines of `run`'s help: the signature, then its help wrapped beside it. */
export function capabilityOptionsHelp(): string[] {
  return declaredOptions.flatMap(({ option }) => {
    const signature = `    ${optionSignature(option)}`;
    const words = wrap(option.help.split(/\s+/), helpWidth - helpIndent);
    // A signature too long for the column gets a line of its own, as --allow-network-command does.
    if (signature.length >= helpIndent - 1) return [signature, ...words.map((line) => ' '.repeat(helpIndent) + line)];
    return [signature.padEnd(helpIndent) + words[0], ...words.slice(1).map((line) => ' '.repeat(helpIndent) + line)];
  });
}

/** The options as a synopsis (`[--allow-command <pattern>...] [--no-sandbox] ...`), for the mcp and serve lines. */
export function capabilityOptionsSynopsis(indent: number, width = helpWidth): string[] {
  const parts = declaredOptions.map(({ option }) => `[${optionSignature(option)}${option.kind === 'repeatable' ? '...' : ''}]`);
  return wrap(parts, width - indent).map((line) => ' '.repeat(indent) + line);
}

/** Units (words, or a synopsis' bracketed options, never split) in lines of at most `width` where they fit. */
function wrap(units: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of units) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}
