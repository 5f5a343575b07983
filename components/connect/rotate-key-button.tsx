"use client";

import { ErrorPanel } from "@/components/ui/error-panel";
import { useRotateEnrollmentKey } from "@/lib/query/use-admin-mutations";
import { Button } from "@/components/ui/button";

/** Admins: replace the enrollment key (enrolled workspaces keep working; new ones need the new key). */
export function RotateKeyButton() {
  const rotate = useRotateEnrollmentKey();
  return (
    <>
      <Button
        pending={rotate.isPending}
        onClick={() => {
          if (window.confirm("Replace the enrollment key? Templates must be updated before new workspaces can enroll."))
            rotate.mutate();
        }}
      >
        Rotate
      </Button>
      {rotate.isError ? <ErrorPanel title="Could not rotate the key" error={rotate.error} /> : null}
    </>
  );
}
