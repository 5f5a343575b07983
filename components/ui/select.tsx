import type { ReactNode, SelectHTMLAttributes } from "react";
import { Field } from "./field";

export type SelectOption = { value: string | number; label: ReactNode; disabled?: boolean };

/**
 * A select and its label, its options given as data. `onValue` gets the chosen option's value as the DOM has
 * it (a string); a form read through FormData gives the select a `name` instead.
 */
export function Select({
  label,
  look,
  className,
  options,
  onValue,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, "onChange"> & {
  label?: ReactNode;
  look?: "field" | "plain";
  options: readonly SelectOption[];
  onValue?: (value: string) => void;
}) {
  const control = (
    <select
      {...select}
      className={className && label === undefined ? className : undefined}
      onChange={onValue ? (e) => onValue(e.target.value) : undefined}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value} disabled={o.disabled}>
          {o.label}
        </option>
      ))}
    </select>
  );
  // Without a label of its own (a toolbar's filter), the select is named by its aria-label.
  if (label === undefined) return control;
  return (
    <Field label={label} look={look} className={className}>
      {control}
    </Field>
  );
}
