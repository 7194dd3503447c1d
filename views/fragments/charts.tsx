// The dashboard's two bar charts, drawn as inline SVG on the server: no script, no image files,
// colours from the stylesheet (so they follow the theme), a text summary for screen readers and
// a tooltip per bar.

import { Html } from "@elysiajs/html";
import type { DailyIpChanges, HourlyUpdates } from "../../src/modules/metrics/service";
import { clock } from "../format";
import { msg } from "../i18n";

const WIDTH = 480;
const HEIGHT = 150;
const PLOT_TOP = 10;
const PLOT_BOTTOM = 125;
const PLOT_LEFT = 28;
const PLOT_RIGHT = WIDTH - 4;

interface Bar {
  /** Stacked from the bottom: [class, value]. */
  parts: [string, number][];
  label: string;
  /** Axis label under the bar, or empty. */
  tick: string;
}

/** The scale's top: the largest bar rounded up to a number that reads well (1, 2, 5, 10, 20 …). */
function scaleTop(max: number): number {
  if (max <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((s) => s * magnitude >= max)!;
  return step * magnitude;
}

function BarChart({ id, summary, bars }: { id: string; summary: string; bars: Bar[] }) {
  const top = scaleTop(Math.max(0, ...bars.map((bar) => bar.parts.reduce((sum, [, v]) => sum + v, 0))));
  const plotHeight = PLOT_BOTTOM - PLOT_TOP;
  const slot = (PLOT_RIGHT - PLOT_LEFT) / bars.length;
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => (value / top) * plotHeight;
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={`${id}-title`}
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={`${id}-title`}>{summary}</title>
      <line class="chart-grid" x1={PLOT_LEFT} x2={PLOT_RIGHT} y1={PLOT_TOP} y2={PLOT_TOP} />
      <line
        class="chart-grid"
        x1={PLOT_LEFT}
        x2={PLOT_RIGHT}
        y1={(PLOT_TOP + PLOT_BOTTOM) / 2}
        y2={(PLOT_TOP + PLOT_BOTTOM) / 2}
      />
      <line class="chart-axis" x1={PLOT_LEFT} x2={PLOT_RIGHT} y1={PLOT_BOTTOM} y2={PLOT_BOTTOM} />
      <text class="chart-label" x={PLOT_LEFT - 6} y={PLOT_TOP + 4} text-anchor="end">
        {top}
      </text>
      <text class="chart-label" x={PLOT_LEFT - 6} y={PLOT_BOTTOM + 4} text-anchor="end">
        0
      </text>
      {bars.map((bar, i) => {
        const x = PLOT_LEFT + i * slot + (slot - barWidth) / 2;
        let base = PLOT_BOTTOM;
        return (
          <g class="bar">
            <title>{bar.label}</title>
            {/* A transparent full-height rect makes the whole slot hoverable for the tooltip. */}
            <rect
              class="bar-hit"
              x={(PLOT_LEFT + i * slot).toFixed(1)}
              y={PLOT_TOP}
              width={slot.toFixed(1)}
              height={plotHeight}
            />
            {bar.parts.map(([cls, value]) => {
              const height = y(value);
              base -= height;
              return (
                <rect
                  class={cls}
                  x={x.toFixed(1)}
                  y={base.toFixed(1)}
                  width={barWidth.toFixed(1)}
                  height={height.toFixed(1)}
                  rx="1.5"
                />
              );
            })}
            {bar.tick ? (
              <text class="chart-label" x={(x + barWidth / 2).toFixed(1)} y={HEIGHT - 6} text-anchor="middle">
                {bar.tick}
              </text>
            ) : (
              ""
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** Updates per hour over the last 24 h, successes below failures. */
export function UpdatesChart({ hours }: { hours: HourlyUpdates[] }) {
  const ok = hours.reduce((sum, h) => sum + h.success, 0);
  const failed = hours.reduce((sum, h) => sum + h.failed, 0);
  const words = msg().charts;
  const bars: Bar[] = hours.map((hour, i) => ({
    parts: [
      ["bar-ok", hour.success],
      ["bar-fail", hour.failed],
    ],
    label: words.hourBar(clock(hour.start), clock(hour.start + 3_600_000), hour.success, hour.failed),
    tick: i % 6 === 0 ? clock(hour.start) : "",
  }));
  return (
    <figure class="chart-figure">
      <BarChart id="chart-updates" summary={words.updatesSummary(ok, failed)} bars={bars} />
      <figcaption class="chart-legend">
        <span class="legend legend-ok">{words.succeeded}</span>
        <span class="legend legend-fail">{words.failed}</span>
      </figcaption>
    </figure>
  );
}

/** IP changes per day over the last 7 days. */
export function IpChangesChart({ days }: { days: DailyIpChanges[] }) {
  const total = days.reduce((sum, d) => sum + d.changes, 0);
  const words = msg().charts;
  const bars: Bar[] = days.map((day) => {
    const weekday = words.weekday(new Date(day.start).getDay());
    return { parts: [["bar-info", day.changes]], label: words.dayBar(weekday, day.changes), tick: weekday };
  });
  return (
    <figure class="chart-figure">
      <BarChart id="chart-changes" summary={words.changesSummary(total)} bars={bars} />
      <figcaption class="chart-legend">
        <span class="legend legend-info">{words.changesLegend}</span>
      </figcaption>
    </figure>
  );
}
