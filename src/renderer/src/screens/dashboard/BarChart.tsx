import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One series of a chart: bars (stacked with the chart's other bars when it stacks) or a line. */
export interface ChartSeries {
  label: string;
  values: readonly number[];
  /** The CSS variable of its colour (styles/dashboard.css), read again when the theme changes. */
  color: string;
  kind: 'bar' | 'line';
}

interface BarChartProps {
  /** The categories along the axis: a period, a product, a day. */
  labels: readonly string[];
  series: readonly ChartSeries[];
  /** Bars stacked, each on the ones before it (a period's statuses). */
  stacked?: boolean;
  /** Bars along the vertical axis (products, whose names are long). */
  horizontal?: boolean;
  height: number;
  /** How a value is written on the axis and in the legend. */
  format?: (value: number) => string;
  /** The values are counts: whole-number ticks. */
  integer?: boolean;
  /** A bar clicked: its category's index. */
  onPick?: (index: number) => void;
}

const cssVar = (name: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || 'currentColor';

/** The theme on <html data-theme> (lib/theme.ts): a change redraws the chart in its colours. */
function useThemeKey(): string {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? '');
  useEffect(() => {
    const observer = new MutationObserver(() =>
      setTheme(document.documentElement.dataset.theme ?? ''),
    );
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme'],
    });
    return () => observer.disconnect();
  }, []);
  return theme;
}

/**
 * A bar chart drawn by uPlot (docs/decisions.md, "Dashboard"): the categories are the x values
 * 0..n-1 named by `labels`. Stacked bars are drawn tallest sum first, each the sum of itself and
 * the bars before it, so each shows its own part. The canvas is for the eye: every chart has its
 * table beside it, which is what keyboards and screen readers read.
 */
export function BarChart({
  labels,
  series,
  stacked = false,
  horizontal = false,
  height,
  format = (v) => String(v),
  integer = false,
  onPick,
}: BarChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const theme = useThemeKey();
  const pick = useRef(onPick);
  pick.current = onPick;
  const formatRef = useRef(format);
  formatRef.current = format;

  // What is drawn: the categories 0..n-1, then the bars (summed when stacked, tallest first so
  // each shows its own part), then the lines.
  const data = useMemo((): uPlot.AlignedData => {
    const bars = series.filter((s) => s.kind === 'bar').map((s) => [...s.values]);
    if (stacked) {
      const sums = labels.map(() => 0);
      for (const values of bars) values.forEach((v, i) => (values[i] = sums[i] = sums[i]! + v));
      bars.reverse();
    }
    return [
      labels.map((_, i) => i),
      ...bars,
      ...series.filter((s) => s.kind === 'line').map((s) => [...s.values]),
    ];
  }, [labels, series, stacked]);
  const latest = useRef(data);
  latest.current = data;
  // The chart is made again only when what it shows changes (its categories, its series, the
  // theme); new figures alone are given to it (setData), which is much cheaper.
  const shape = JSON.stringify([
    labels,
    series.map((s) => [s.label, s.color, s.kind]),
    stacked,
    horizontal,
    height,
    integer,
    theme,
  ]);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const xs = labels.map((_, i) => i);
    const bars = series.filter((s) => s.kind === 'bar');
    const lines = series.filter((s) => s.kind === 'line');
    const drawnBars = stacked ? [...bars].reverse() : bars;
    const text = cssVar('--text');
    const grid = cssVar('--border');
    const common = {
      stroke: text,
      ticks: { stroke: grid, width: 1 },
      font: '12px system-ui, sans-serif',
    };
    // The categories: each named, as many as fit (the weeks of a year share the axis).
    const categoryAxis: uPlot.Axis = {
      ...common,
      side: horizontal ? 3 : 2,
      grid: { show: false },
      size: horizontal ? 210 : 36,
      splits: (u: uPlot) => {
        const room = horizontal
          ? u.bbox.height / devicePixelRatio / 22
          : u.bbox.width / devicePixelRatio / 64;
        const step = Math.max(1, Math.ceil(xs.length / Math.max(1, Math.floor(room))));
        return xs.filter((i) => i % step === 0);
      },
      values: (_u: uPlot, splits: number[]) => splits.map((i) => labels[i] ?? ''),
    };
    const valueAxis: uPlot.Axis = {
      ...common,
      side: horizontal ? 2 : 3,
      // Room for a figure's width along a horizontal axis ("$1,200"), its height along another.
      space: horizontal ? 64 : 30,
      grid: { stroke: grid, width: 1 },
      size: horizontal ? 30 : 70,
      values: (_u: uPlot, splits: number[]) => splits.map((v) => formatRef.current(v)),
      ...(integer
        ? {
            incrs: [
              1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000,
            ],
          }
        : {}),
    };
    const barPaths = uPlot.paths.bars!({ size: [stacked ? 0.7 : 0.6, 48], align: 0 });
    const opts: uPlot.Options = {
      width: el.clientWidth || 600,
      height,
      scales: {
        x: {
          time: false,
          ori: horizontal ? 1 : 0,
          dir: horizontal ? -1 : 1,
          range: [-0.6, labels.length - 0.4],
        },
        y: {
          ori: horizontal ? 0 : 1,
          dir: 1,
          range: (_u, _min, max) => [0, Math.max(1, max * 1.08)],
        },
      },
      axes: [categoryAxis, valueAxis],
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      legend: { show: true, live: false },
      series: [
        {},
        ...drawnBars.map((s) => ({
          label: s.label,
          stroke: cssVar(s.color),
          fill: cssVar(s.color),
          width: 0,
          paths: barPaths,
          points: { show: false },
        })),
        ...lines.map((s) => ({
          label: s.label,
          stroke: cssVar(s.color),
          width: 2,
          dash: [6, 4],
          points: { show: true, size: 6, fill: cssVar(s.color) },
        })),
      ],
    };
    const made = new uPlot(opts, latest.current, el);
    chart.current = made;
    const onClick = () => {
      const i = made.cursor.idx;
      if (i != null && pick.current) pick.current(i);
    };
    made.over.addEventListener('click', onClick);
    const resize =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => made.setSize({ width: el.clientWidth || 600, height }));
    resize?.observe(el);
    return () => {
      resize?.disconnect();
      made.over.removeEventListener('click', onClick);
      made.destroy();
      chart.current = null;
    };
    // The shape says when to make it again; labels and series are read as they are then.
  }, [shape]);

  useEffect(() => {
    const made = chart.current;
    if (made && made.data !== data) made.setData(data);
  }, [data]);

  return (
    <div
      ref={host}
      className={onPick ? 'bar-chart bar-chart-pickable' : 'bar-chart'}
      aria-hidden="true"
    />
  );
}
