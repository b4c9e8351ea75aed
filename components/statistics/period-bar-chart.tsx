"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount } from "./format";
import { longPeriod, shortPeriod, type Grouping } from "./period";

export type ChartBar = { id: string; label: string; color: string };
export type ChartRow = { period: string } & Record<string, number | string>;

const tick = { fontSize: 12, fill: "#475569" };

/**
 * Bars per period, stacked (one bar made of the series) or side by side. A picture only: it is `role="img"`
 * with `label` saying what it shows, and the table next to it carries the same figures for screen readers
 * and keyboards (the chart takes no focus).
 */
export function PeriodBarChart({
  label,
  rows,
  bars,
  groupBy,
  stacked,
}: {
  label: string;
  rows: ChartRow[];
  bars: ChartBar[];
  groupBy: Grouping;
  stacked: boolean;
}) {
  return (
    <div role="img" aria-label={label} className="h-72 w-full min-w-0">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="#e2e8f0" />
          <XAxis
            dataKey="period"
            tickFormatter={(period: string) => shortPeriod(period, groupBy)}
            tick={tick}
            tickLine={false}
            axisLine={{ stroke: "#cbd5e1" }}
            minTickGap={16}
          />
          <YAxis allowDecimals={false} tick={tick} tickLine={false} axisLine={false} width={36} />
          <Tooltip
            cursor={{ fill: "#f1f5f9" }}
            labelFormatter={(period) => longPeriod(String(period), groupBy)}
            formatter={(value) => formatCount(Number(value))}
            contentStyle={{ borderRadius: 8, borderColor: "#e2e8f0", fontSize: 13 }}
          />
          <Legend
            iconType="square"
            iconSize={10}
            wrapperStyle={{ fontSize: 12, paddingTop: 8 }}
            // Recharts writes each name in its series' colour; slate text stays readable whatever the colour.
            formatter={(value) => <span style={{ color: "#334155" }}>{value}</span>}
          />
          {bars.map((bar, index) => (
            <Bar
              key={bar.id}
              dataKey={bar.id}
              name={bar.label}
              fill={bar.color}
              stackId={stacked ? "stack" : undefined}
              maxBarSize={48}
              isAnimationActive={false}
              // Only the top of a stack is rounded.
              radius={!stacked || index === bars.length - 1 ? [3, 3, 0, 0] : 0}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
