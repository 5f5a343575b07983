"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { ErrorPanel } from "@/components/ui/error-panel";
import { fetchJson } from "@/lib/query/fetch-json";

/** Admins: replace the enrollment key (enrolled workspaces keep working; new ones need the new key). */
export function RotateKeyButton() {
  const router = useRouter();
  const rotate = useMutation({
    mutationFn: () => fetchJson<{ rotated: boolean }>("/api/v1/enrollment-key/rotate", { method: "POST" }),
    onSuccess: () => router.refresh(),
  });
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={rotate.isPending}
        onClick={() => {
          if (window.confirm("Replace the enrollment key? Templates must be updated before new workspaces can enroll."))
            rotate.mutate();
        }}
      >
        Rotate
      </button>
      {rotate.isError ? <ErrorPanel title="Could not rotate the key" error={rotate.error} /> : null}
    </>
  );
}
