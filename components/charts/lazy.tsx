"use client";

// Recharts is most of a chart page's JavaScript and draws nothing on the server (charts size themselves in
// the browser), so chart components load as their own chunk after hydration, behind a same-size skeleton.
import dynamic from "next/dynamic";
import type { ComponentType } from "react";
import { Skeleton } from "@/components/ui/states";

/** A chart component loaded on the client only, behind a skeleton of the chart's own height. */
function lazyChart<P extends object>(load: () => Promise<ComponentType<P>>, height: number) {
  return dynamic(load, { ssr: false, loading: () => <Skeleton height={height} label="Loading chart" /> });
}

export const StackedAreaChart = lazyChart(() => import("./stacked-area-chart").then((m) => m.StackedAreaChart), 340);
export const VolumeChart = lazyChart(() => import("./volume-chart").then((m) => m.VolumeChart), 300);
export const StackedBarChart = lazyChart(() => import("./stacked-bar-chart").then((m) => m.StackedBarChart), 240);
export const HistogramChart = lazyChart(() => import("./histogram-chart").then((m) => m.HistogramChart), 280);
