import { PageLoading } from "@/components/ui/states";

export default function Loading() {
  return <PageLoading />;
}
