/**
 * Reading and checking the limits of limits.ts: as zod validates them, as a setting holds them (VS Code
 * stores any number), and why a value the CLI was given is refused.
 */
import * as z from 'zod';
import { type LimitName, type LimitRange, limitRanges } from './limits.js';
import { builtOnFirstUse } from './util/built-on-first-use.js';

function limitSchema(range: LimitRange) {
  const number = range.whole ? z.number().int() : z.number();
  const bounded = Number.isFinite(range.maximum) ? number.min(range.minimum).max(range.maximum) : number.min(range.minimum);
  return bounded.default(range.default);
}

/** Every limit, validated, with its default where it is missing; built on the first call (B5 in docs/performance.md). */
export const engineLimitsSchema = builtOnFirstUse(() =>
  z.object(
    Object.fromEntries(Object.entries(limitRanges).map(([name, range]) => [name, limitSchema(range)])) as {
      [Name in LimitName]: ReturnType<typeof limitSchema>;
    },
  ),
);

/**
 * A limit as a setting holds it: not a number (or not whole where it must be), or below the minimum, gives
 * the default; above the maximum gives the maximum (VS Code shows the range but stores any number).
 */
export function readLimit(name: LimitName, value: unknown): number {
  const range: LimitRange = limitRanges[name];
  if (typeof value !== 'number' || !Number.isFinite(value) || (range.whole && !Number.isInteger(value)) || value < range.minimum)
    return range.default;
  return Math.min(value, range.maximum);
}

/** Why `value` is not a valid `name`, or undefined when it is. */
export function limitProblem(name: LimitName, value: number): string | undefined {
  const range: LimitRange = limitRanges[name];
  if (!Number.isFinite(value) || (range.whole && !Number.isInteger(value))) return `must be a ${range.whole ? 'whole ' : ''}number`;
  if (value < range.minimum || value > range.maximum)
    return Number.isFinite(range.maximum) ? `must be from ${range.minimum} to ${range.maximum}` : `must be ${range.minimum} or more`;
  return undefined;
}
