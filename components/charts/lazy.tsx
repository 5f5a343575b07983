"use client";

// Recharts is most of a chart page's JavaScript and draws nothing on the server (charts size themselves in
// the browser), so chart components load as their own chunk after hydration, behind a same-size skeleton.
import dynamic from "next/dynamic";
import { Skeleton } from "@/components/ui/states";

export const StackedAreaChart = dynamic(() => import("./stacked-area-chart").then((m) => m.StackedAreaChart), {
  ssr: false,
  loading: () => <Skeleton height={340} label="Loading chart" />,
});

export const VolumeChart = dynamic(() => import("./volume-chart").then((m) => m.VolumeChart), {
  ssr: false,
  loading: () => <Skeleton height={300} label="Loading chart" />,
});

export const StackedBarChart = dynamic(() => import("./stacked-bar-chart").then((m) => m.StackedBarChart), {
  ssr: false,
  loading: () => <Skeleton height={240} label="Loading chart" />,
});

export const HistogramChart = dynamic(() => import("./histogram-chart").then((m) => m.HistogramChart), {
  ssr: false,
  loading: () => <Skeleton height={280} label="Loading chart" />,
});
