import { describe, expect, it } from 'vitest';
import { linearScale, lineChart, type LineChartSpec, logScale } from '../../bench/support/svg-chart.js';

const spec: LineChartSpec = {
  title: 'B1: time per delegation',
  xLabel: 'tasks (log scale)',
  yLabel: 'time per delegation (µs)',
  series: [
    {
      name: 'median',
      points: [
        { x: 10, y: 50 },
        { x: 1_000, y: 100 },
        { x: 10_000, y: null },
        { x: 100_000, y: 150 },
      ],
    },
  ],
  targets: [{ value: 100, label: '≤ 100 µs' }],
  note: 'Load average 1.2 & rising <quick>',
};

/** The attributes of every element named `tag` (in document order). */
function elements(svg: string, tag: string): Array<Record<string, string>> {
  return [...svg.matchAll(new RegExp(`<${tag}\\b([^>]*?)/?>`, 'g'))].map((match) =>
    Object.fromEntries([...match[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((attribute) => [attribute[1], attribute[2]])),
  );
}

function textsOf(svg: string, className: string): string[] {
  return [...svg.matchAll(new RegExp(`<text class="${className}"[^>]*>([^<]*)</text>`, 'g'))].map((match) => match[1]);
}

describe('lineChart', () => {
  const svg = lineChart(spec);

  it('is a standalone SVG document with the title and both axes labelled', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('<title>B1: time per delegation</title>');
    expect(textsOf(svg, 'x-label')).toEqual(['tasks (log scale)']);
    expect(textsOf(svg, 'y-label')).toEqual(['time per delegation (µs)']);
  });

  it('labels the log x axis at each power of ten', () => {
    expect(textsOf(svg, 'x-tick')).toEqual(['10', '100', '1,000', '10,000', '100,000']);
  });

  it('draws the target as a dashed horizontal line labelled "target"', () => {
    const [target] = elements(svg, 'line').filter((line) => line.class === 'target');
    expect(target['stroke-dasharray']).toBeDefined();
    expect(target.y1).toBe(target.y2);
    expect(textsOf(svg, 'target-label')).toEqual(['target ≤ 100 µs']);
    // The point at the target's value sits on the line.
    const onTarget = elements(svg, 'circle').filter((circle) => circle.class === 'point')[1];
    expect(onTarget.cy).toBe(target.y1);
  });

  it('places each measured point on the scales, leaves out the missing one and breaks the line there', () => {
    const points = elements(svg, 'circle')
      .filter((circle) => circle.class === 'point')
      .map((circle) => [Number(circle.cx), Number(circle.cy)]);
    expect(points).toHaveLength(3);
    const [first, second, last] = points;
    // Log x: 10 → 1,000 is two decades, 1,000 → 100,000 two more: equal distances.
    expect(second[0] - first[0]).toBeCloseTo(last[0] - second[0], 0);
    // Linear y from 0 (SVG y grows downwards): 100 is twice as far above the axis as 50.
    const axis = Number(elements(svg, 'line').find((line) => line.stroke === '#333' && line.y1 === line.y2)?.y1);
    expect(axis - second[1]).toBeCloseTo(2 * (axis - first[1]), 0);
    expect(elements(svg, 'polyline')).toHaveLength(1);
    expect(elements(svg, 'polyline')[0].points.split(' ')).toHaveLength(2);
  });

  it('escapes text and wraps the note', () => {
    expect(svg).toContain('Load average 1.2 &amp; rising &lt;quick&gt;');
    expect(svg).not.toContain('<quick>');
  });

  it('refuses a chart with nothing measured', () => {
    expect(() => lineChart({ ...spec, series: [{ name: 'none', points: [{ x: 10, y: null }] }] })).toThrow('no measured points');
  });
});

describe('scales', () => {
  it('a log scale widens to whole decades and ticks each', () => {
    const scale = logScale([12, 900], [0, 100]);
    expect(scale.ticks).toEqual([10, 100, 1_000]);
    expect(scale(10)).toBe(0);
    expect(scale(100)).toBe(50);
    expect(scale(1_000)).toBe(100);
  });

  it('a log y scale ticks every decade of the values and targets', () => {
    const svg = lineChart({ ...spec, yScale: 'log', targets: [{ value: 4, label: '≤ 4 ms' }] });
    expect(textsOf(svg, 'y-tick')).toEqual(['1', '10', '100', '1,000']);
  });

  it('a linear scale starts at 0 and ends on a round tick above the largest value', () => {
    const scale = linearScale([0.3, 7.2], [0, 100]);
    expect(scale.ticks).toEqual([0, 2, 4, 6, 8]);
    expect(scale(0)).toBe(0);
    expect(scale(8)).toBe(100);
  });

  it('a linear scale reaches below 0 to a round tick when a value is negative, so every point stays on the chart', () => {
    const scale = linearScale([-8.9, 4.1, 11.1], [0, 100]);
    expect(scale.ticks).toEqual([-10, -5, 0, 5, 10, 15]);
    expect(scale(-10)).toBe(0);
    expect(scale(15)).toBe(100);
    expect(scale(-8.9)).toBeGreaterThanOrEqual(0);
  });
});
