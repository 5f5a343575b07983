// The text checks live in lib/validations/text.ts (reports validate through them without reaching lib/http). This
// path remains only for lib/reporter/hostile-names.test.ts until that file imports the new one.
export { findBadText } from "@/lib/validations/text";
