import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ModuleView } from "@/components/modules/module-view";
import { getDb } from "@/lib/db";
import { getModuleDetail } from "@/lib/db/queries/modules";
import { moduleDetailOptions } from "@/lib/query/modules";
import { prefetchOneOrNotFound } from "@/lib/query/prefetch";
import { moduleKey } from "@/lib/validations/modules";
import { parseRange } from "@/lib/validations/range";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ namespace: string; module: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

async function keyOf(params: Props["params"]): Promise<string | null> {
  const { namespace, module } = await params;
  return moduleKey(decodeURIComponent(namespace), decodeURIComponent(module));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await keyOf(params)) ?? "Module" };
}

export default async function ModulePage({ params, searchParams }: Props) {
  await requirePage();
  const key = await keyOf(params);
  if (key === null) notFound();
  const range = parseRange(await searchParams);
  const state = await prefetchOneOrNotFound(moduleDetailOptions(key, range).queryKey, async () =>
    getModuleDetail(await getDb(), key, range),
  );
  return (
    <HydrationBoundary state={state}>
      <ModuleView moduleKey={key} />
    </HydrationBoundary>
  );
}
