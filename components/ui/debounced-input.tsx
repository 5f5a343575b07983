"use client";

import { useEffect, useState } from "react";

/** A text box that reports its value after the user pauses typing. */
export function DebouncedInput({
  value,
  onChange,
  ...rest
}: { value: string; onChange: (v: string) => void } & Omit<
  React.InputHTMLAttributes<HTMLInputElement>,
  "value" | "onChange"
>) {
  const [draft, setDraft] = useState(value);
  // A new value from outside (back button, a cleared filter) replaces the draft, during render rather than in
  // an effect so no frame shows the stale text.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setDraft(value);
  }
  useEffect(() => {
    if (draft === value) return;
    const t = setTimeout(() => onChange(draft), 300);
    return () => clearTimeout(t);
  }, [draft, value, onChange]);
  return <input {...rest} value={draft} onChange={(e) => setDraft(e.target.value)} />;
}
