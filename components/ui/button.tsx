import type { ComponentProps } from "react";

export type ButtonProps = ComponentProps<"button"> & {
  /**
   * "default": the house button (`.button` in globals.css); "primary": the page's one main action, filled;
   * "bare": none of the house look, for a button that a class of its own styles whole (a segmented control's
   * option, a sortable header, a chart legend's item, the theme toggle).
   */
  variant?: "default" | "primary" | "bare";
  /** "small": the smaller text of a button beside a line of prose (a log's Truncate, Empty the trash now). */
  size?: "small";
  /** An action it started is still running: the button is disabled (and says it is busy) until it ends. */
  pending?: boolean;
};

const VARIANT_CLASSES: Record<NonNullable<ButtonProps["variant"]>, string> = {
  default: "button",
  primary: "button primary",
  bare: "",
};

/**
 * Every button the dashboard draws (the linter refuses a hand-written `<button>` elsewhere). It forwards the
 * native props and ref; `type` defaults to "button", so a button inside a form submits it only when it says so.
 * `className` adds layout or one-off classes ("long-label", "self-start") to the variant's.
 */
export function Button({
  variant = "default",
  size,
  pending = false,
  className,
  type = "button",
  disabled,
  ...button
}: ButtonProps) {
  const classes = [VARIANT_CLASSES[variant], size ?? "", className ?? ""].filter(Boolean).join(" ");
  return (
    <button
      {...button}
      type={type}
      className={classes || undefined}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
    />
  );
}
