import type { InputHTMLAttributes, ReactNode } from "react";

type FieldLook = {
  /** "field": the small muted label of a toolbar or a run's parameters; "plain": a form row's (sign-in, users, tokens). */
  look?: "field" | "plain";
  /** More classes on the label ("small", a layout class). */
  className?: string;
};

/**
 * A control and its label. The label wraps the control, so the browser ties the two without ids and a test
 * finds the control by its label's text (or by the control's own aria-label, which wins when set).
 */
export function Field({
  label,
  unit,
  look = "field",
  className,
  children,
}: FieldLook & { label?: ReactNode; unit?: ReactNode; children: ReactNode }) {
  const classes = [look === "field" ? "field" : "", className ?? ""].filter(Boolean).join(" ");
  return (
    <label className={classes || undefined}>
      {label}
      {children}
      {unit}
    </label>
  );
}

/** Widths a short input takes, in pixels: each one a class in globals.css. */
export type InputWidth = 60 | 70 | 80 | 90 | 110 | 220;

type TextFieldProps = FieldLook &
  Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "width"> & {
    label?: ReactNode;
    unit?: ReactNode;
    width?: InputWidth;
    /** The text as typed. */
    onValue?: (value: string) => void;
  };

/** An input (text by default; email, password, date, time) with its label and unit. */
export function TextField({ label, unit, look, className, width, onValue, ...input }: TextFieldProps) {
  return (
    <Field label={label} unit={unit} look={look} className={className}>
      <input
        type="text"
        {...input}
        className={width ? `w-${width}` : undefined}
        onChange={onValue ? (e) => onValue(e.target.value) : undefined}
      />
    </Field>
  );
}

/** A number input with its label and unit ("Older than [30] days"); `onValue` gets the raw text as typed. */
export function NumberField(props: Omit<TextFieldProps, "type">) {
  return <TextField {...props} type="number" />;
}

/** A checkbox before its text, the whole line its label. */
export function CheckField({
  label,
  className,
  checked,
  onChecked,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "type"> & {
  label: ReactNode;
  className?: string;
  onChecked: (checked: boolean) => void;
}) {
  return (
    <Field className={className}>
      <input type="checkbox" {...input} checked={checked} onChange={(e) => onChecked(e.target.checked)} />
      {label}
    </Field>
  );
}
