/** Values given to the CLI's options: numbers checked against the engine's limits table. */
import { type LimitName, limitRanges } from '../engine/index.js';
import { UsageError } from './usage-error.js';

/** The value of a limit's option: its default when not given, else a number in the limit's range. */
export function limitOption(values: ReadonlyMap<string, string>, option: string, limit: LimitName): number {
  const range = limitRanges[limit];
  return range.whole
    ? wholeNumber(values, option, range.default, range.minimum, Math.min(range.maximum, Number.MAX_SAFE_INTEGER))
    : seconds(option, values.get(option) ?? String(range.default));
}

export function wholeNumber(values: ReadonlyMap<string, string>, name: string, fallback: number, minimum: number, maximum: number): number {
  const text = values.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < minimum || value > maximum) {
    throw new UsageError(`${name} must be a whole number from ${minimum} to ${maximum}, not "${text}"`);
  }
  return value;
}

/** `--budget-usd 2.50`: a positive amount of US dollars. */
export function dollarsOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.replace(/^\$/, ''));
  if (!/^\$?\d+(\.\d+)?$/.test(text) || !Number.isFinite(value) || value <= 0)
    throw new UsageError(`--budget-usd must be a positive amount of US dollars, e.g. 2.50, not "${text}"`);
  return value;
}

function seconds(name: string, text: string): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value)) {
    throw new UsageError(`${name} must be zero or more seconds, not "${text}"`);
  }
  return value;
}
