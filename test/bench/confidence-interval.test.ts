import { describe, expect, it } from 'vitest';
import {
  asCost,
  bootstrapInterval,
  describeInterval,
  medianInterval,
  pairedDifferences,
  ratioOfMediansInterval,
} from '../../bench/support/confidence-interval.js';
import { median } from '../../bench/support/stats.js';

/** 1, 2, …, n in a shuffled order (the interval must not depend on the order). */
function shuffledRange(count: number): number[] {
  const values = Array.from({ length: count }, (_, index) => index + 1);
  for (let index = values.length - 1; index > 0; index--) {
    const other = (index * 7919) % (index + 1);
    [values[index], values[other]] = [values[other], values[index]];
  }
  return values;
}

describe('medianInterval', () => {
  it('takes the order statistics of the binomial table: the 40th and 61st of 100 at 95 %', () => {
    const interval = medianInterval(shuffledRange(100));
    expect(interval).toMatchObject({ low: 40, high: 61, estimate: 50, count: 100, level: 0.95 });
  });

  it('takes the 6th and 15th of 20 at 95 % (coverage 95.9 %)', () => {
    expect(medianInterval(shuffledRange(20))).toMatchObject({ low: 6, high: 15 });
  });

  it('narrows as pairs are added, around the same median', () => {
    const few = medianInterval(shuffledRange(21));
    const many = medianInterval(shuffledRange(201).map((value) => value / 10));
    expect(few.high - few.low).toBeGreaterThan(0);
    expect((many.high - many.low) / 20).toBeLessThan((few.high - few.low) / 21);
  });

  it('says the coverage it really has when there are too few values for the level', () => {
    const interval = medianInterval([3, 1, 2, 5, 4]);
    expect(interval).toMatchObject({ low: 1, high: 5, estimate: 3 });
    expect(interval.level).toBeCloseTo(1 - 2 / 32, 10);
  });

  it('leaves out values that are not numbers, and has no interval for none', () => {
    expect(medianInterval([Number.NaN, 1, 2, 3, 4, 5, 6, Number.POSITIVE_INFINITY]).count).toBe(6);
    expect(medianInterval([]).estimate).toBeNaN();
  });

  it('refuses a level outside 0…1', () => {
    expect(() => medianInterval([1, 2, 3], 1.5)).toThrow(/between 0 and 1/);
  });

  it('keeps a noisy difference below zero visible (the interval straddles 0; the upper end is what is judged)', () => {
    const bare = [10, 30, 11, 12, 31, 10, 12, 33, 11, 10, 12, 30];
    const sandboxed = [14, 12, 15, 16, 13, 14, 35, 13, 15, 14, 16, 12];
    const interval = medianInterval(pairedDifferences(sandboxed, bare));
    expect(interval.low).toBeLessThan(0);
    expect(interval.high).toBeGreaterThan(0);
    expect(asCost(interval).low).toBe(0);
    expect(asCost(interval).high).toBe(interval.high);
  });
});

describe('pairedDifferences', () => {
  it('subtracts pair by pair and refuses lists of different lengths', () => {
    expect(pairedDifferences([5, 7], [1, 2])).toEqual([4, 5]);
    expect(() => pairedDifferences([1], [1, 2])).toThrow(/one length/);
  });
});

describe('bootstrapInterval', () => {
  it('is reproducible (seeded) and holds the estimate', () => {
    const values = shuffledRange(50);
    const first = bootstrapInterval(values, (sample) => median(sample));
    expect(bootstrapInterval(values, (sample) => median(sample))).toEqual(first);
    expect(first.low).toBeLessThanOrEqual(first.estimate);
    expect(first.high).toBeGreaterThanOrEqual(first.estimate);
    expect(first.estimate).toBe(25);
  });

  it('is a single point when every pair is alike', () => {
    expect(bootstrapInterval([2, 2, 2, 2], (sample) => median(sample))).toMatchObject({ low: 2, high: 2, estimate: 2 });
  });
});

describe('ratioOfMediansInterval', () => {
  it('brackets the ratio of the medians of paired rounds', () => {
    const hand = [100, 110, 90, 105, 95, 100, 98, 102, 101, 99];
    const verdict = hand.map((value, index) => value * 1.2 + (index % 3) - 1);
    const interval = ratioOfMediansInterval(verdict, hand);
    expect(interval.estimate).toBeCloseTo(median(verdict) / median(hand), 10);
    expect(interval.low).toBeLessThanOrEqual(interval.estimate);
    expect(interval.high).toBeGreaterThanOrEqual(interval.estimate);
    expect(interval.low).toBeGreaterThan(1.1);
    expect(interval.high).toBeLessThan(1.3);
  });
});

describe('describeInterval', () => {
  it('prints the estimate, the level and the ends', () => {
    const interval = { estimate: 4.123, low: 3.2, high: 5.04, level: 0.95, count: 200 };
    expect(describeInterval(interval, 'ms', { label: 'added p50' })).toBe('added p50 4.1 ms (95% CI 3.2–5.0, 200 pairs)');
    expect(describeInterval({ ...interval, estimate: 1.234, low: 1.1, high: 1.4 }, '×', { digits: 2 })).toBe(
      '1.23× (95% CI 1.10–1.40, 200 pairs)',
    );
  });
});
