/**
 * A line chart as a standalone SVG document, for the scaling curves in docs/performance.md. Hand-written
 * rather than a charting library: the suite must not grow dependencies, and a chart that a Markdown
 * viewer shows as an image needs no script, only a few lines, circles and labels.
 *
 * The x axis is logarithmic (sizes go 10 → 100,000, a factor of 10 a step); the y axis is linear from 0
 * by default, so a flat curve looks flat and its distance from 0 is honest, or logarithmic when one chart
 * holds figures of different magnitudes (a 100 ms render next to a 2 ms update).
 */

export interface ChartPoint {
  x: number;
  /** null: not measured at this size (the point is left out, the line broken there). */
  y: number | null;
}

export interface ChartSeries {
  name: string;
  points: readonly ChartPoint[];
}

/** A dashed horizontal line: what the figure must stay under. */
export interface ChartTarget {
  value: number;
  /** Shown at the line's right end, after `target`; e.g. `≤ 100 µs`. */
  label: string;
}

export interface LineChartSpec {
  title: string;
  /** The x axis's label, e.g. `tasks (log scale)`. */
  xLabel: string;
  /** The y axis's label, with the unit, e.g. `time per delegation (µs)`. */
  yLabel: string;
  series: readonly ChartSeries[];
  /** Default: none. */
  targets?: readonly ChartTarget[];
  /** Default `linear` (from 0). */
  yScale?: 'linear' | 'log';
  /** A line of small print under the chart (sizes left out, machine load). Default: none. */
  note?: string;
}

/** Where the plot sits in the picture, in SVG units. */
const layout = { width: 640, height: 410, left: 76, right: 110, top: 64, bottom: 70 };
const palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];

export interface Scale {
  (value: number): number;
  ticks: number[];
}

/** A base-10 logarithmic scale whose domain is widened to whole powers of 10; a tick at each. */
export function logScale(values: readonly number[], range: readonly [number, number]): Scale {
  const positive = values.filter((value) => value > 0);
  const low = Math.floor(Math.log10(Math.min(...positive)));
  let high = Math.ceil(Math.log10(Math.max(...positive)));
  if (high === low) high += 1;
  const scale = ((value: number) => range[0] + ((Math.log10(value) - low) / (high - low)) * (range[1] - range[0])) as Scale;
  scale.ticks = Array.from({ length: high - low + 1 }, (_, index) => 10 ** (low + index));
  return scale;
}

/**
 * A linear scale from 0 (or a round number below the smallest value, when one is negative: a fixed cost
 * spread over few tasks can read below zero, and a point below the axis would be drawn off the chart) to a
 * round number at or above the largest value; about five ticks.
 */
export function linearScale(values: readonly number[], range: readonly [number, number]): Scale {
  const largest = Math.max(0, ...values);
  const smallest = Math.min(0, ...values);
  const span = largest - smallest;
  const step = niceStep(span > 0 ? span / 5 : 1);
  const top = Math.max(step, Math.ceil((largest * 1.05) / step) * step);
  const bottom = smallest < 0 ? Math.floor((smallest * 1.05) / step) * step : 0;
  const scale = ((value: number) => range[0] + ((value - bottom) / (top - bottom)) * (range[1] - range[0])) as Scale;
  scale.ticks = Array.from({ length: Math.round((top - bottom) / step) + 1 }, (_, index) =>
    Number((bottom + index * step).toPrecision(12)),
  );
  return scale;
}

/** The smallest 1, 2 or 5 × 10ⁿ at or above `rough`. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const multiple = [1, 2, 5, 10].find((candidate) => candidate * power >= rough) ?? 10;
  return multiple * power;
}

/** `100,000`, `0.5`, `2.5`: ticks and values as a reader writes them. */
export function formatTick(value: number): string {
  if (value >= 1000) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(3)).toString();
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The chart as an SVG document (UTF-8 text, ends with a newline). */
export function lineChart(spec: LineChartSpec): string {
  const noteLines = spec.note ? wrap(spec.note, 110) : [];
  const height = layout.height + Math.max(0, noteLines.length - 1) * 13;
  const plot = { x0: layout.left, x1: layout.width - layout.right, y0: layout.height - layout.bottom, y1: layout.top };
  const measured = spec.series.flatMap((series) => series.points.filter((point): point is { x: number; y: number } => point.y !== null));
  if (measured.length === 0) throw new Error(`chart "${spec.title}" has no measured points`);
  const targets = spec.targets ?? [];
  const x = logScale(
    measured.map((point) => point.x),
    [plot.x0, plot.x1],
  );
  const yValues = [...measured.map((point) => point.y), ...targets.map((target) => target.value)];
  const y = spec.yScale === 'log' ? logScale(yValues, [plot.y0, plot.y1]) : linearScale(yValues, [plot.y0, plot.y1]);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${height}" viewBox="0 0 ${layout.width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(spec.title)}</title>`,
    `<rect width="${layout.width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${layout.width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(spec.title)}</text>`,
  ];
  // Grid and tick labels first, so the data is drawn over them.
  for (const tick of y.ticks) {
    const at = round(y(tick));
    parts.push(`<line x1="${plot.x0}" y1="${at}" x2="${plot.x1}" y2="${at}" stroke="#e5e5e5"/>`);
    parts.push(`<text class="y-tick" x="${plot.x0 - 6}" y="${at + 4}" text-anchor="end">${formatTick(tick)}</text>`);
  }
  for (const tick of x.ticks) {
    const at = round(x(tick));
    parts.push(`<line x1="${at}" y1="${plot.y0}" x2="${at}" y2="${plot.y1}" stroke="#f0f0f0"/>`);
    parts.push(`<text class="x-tick" x="${at}" y="${plot.y0 + 18}" text-anchor="middle">${formatTick(tick)}</text>`);
  }
  parts.push(`<line x1="${plot.x0}" y1="${plot.y0}" x2="${plot.x1}" y2="${plot.y0}" stroke="#333"/>`);
  parts.push(`<line x1="${plot.x0}" y1="${plot.y0}" x2="${plot.x0}" y2="${plot.y1}" stroke="#333"/>`);
  parts.push(
    `<text class="x-label" x="${(plot.x0 + plot.x1) / 2}" y="${plot.y0 + 40}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`,
  );
  const yMiddle = (plot.y0 + plot.y1) / 2;
  parts.push(
    `<text class="y-label" x="18" y="${yMiddle}" text-anchor="middle" transform="rotate(-90 18 ${yMiddle})">${escapeXml(spec.yLabel)}</text>`,
  );
  for (const target of targets) {
    const at = round(y(target.value));
    parts.push(
      `<line class="target" x1="${plot.x0}" y1="${at}" x2="${plot.x1}" y2="${at}" stroke="#555" stroke-width="1.5" stroke-dasharray="6 4"/>`,
    );
    parts.push(`<text class="target-label" x="${plot.x1 + 6}" y="${at + 4}" fill="#555">target ${escapeXml(target.label)}</text>`);
  }
  spec.series.forEach((series, index) => parts.push(...seriesShapes(series, palette[index % palette.length], x, y)));
  // The legend is a row under the title: the right margin holds the target labels.
  let legendX = plot.x0;
  spec.series.forEach((series, index) => {
    parts.push(`<line x1="${legendX}" y1="42" x2="${legendX + 18}" y2="42" stroke="${palette[index % palette.length]}" stroke-width="2"/>`);
    parts.push(`<circle cx="${legendX + 9}" cy="42" r="3" fill="${palette[index % palette.length]}"/>`);
    parts.push(`<text class="legend" x="${legendX + 24}" y="46">${escapeXml(series.name)}</text>`);
    legendX += 40 + series.name.length * 7;
  });
  noteLines.forEach((line, index) =>
    parts.push(`<text class="note" x="12" y="${layout.height - 12 + index * 13}" font-size="10" fill="#555">${escapeXml(line)}</text>`),
  );
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** `text` in lines of at most about `width` characters, broken at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A polyline through the measured points (broken where one is missing) and a circle at each. */
function seriesShapes(series: ChartSeries, colour: string, x: Scale, y: Scale): string[] {
  const lines: string[] = [];
  const shapes: string[] = [];
  let run: string[] = [];
  const endRun = () => {
    if (run.length > 1) lines.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${run.join(' ')}"/>`);
    run = [];
  };
  for (const point of series.points) {
    if (point.y === null) {
      endRun();
      continue;
    }
    const cx = round(x(point.x));
    const cy = round(y(point.y));
    run.push(`${cx},${cy}`);
    shapes.push(
      `<circle class="point" cx="${cx}" cy="${cy}" r="4" fill="${colour}"><title>${escapeXml(`${series.name}: ${formatTick(point.y)} at ${formatTick(point.x)} tasks`)}</title></circle>`,
    );
  }
  endRun();
  return [...lines, ...shapes];
}
