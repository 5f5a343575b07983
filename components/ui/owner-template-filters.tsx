import { DebouncedInput } from "./debounced-input";

/** A list's owner and template filters, typed (each reported once typing pauses). */
export function OwnerTemplateFilters({
  owner,
  template,
  onOwner,
  onTemplate,
}: {
  owner: string;
  template: string;
  onOwner: (owner: string) => void;
  onTemplate: (template: string) => void;
}) {
  const filters = [
    { name: "Owner", value: owner, onChange: onOwner, width: "w-130" },
    { name: "Template", value: template, onChange: onTemplate, width: "w-150" },
  ];
  return (
    <>
      {filters.map((f) => (
        <DebouncedInput
          key={f.name}
          type="text"
          placeholder={f.name}
          aria-label={`Filter by ${f.name.toLowerCase()}`}
          value={f.value}
          onChange={f.onChange}
          className={f.width}
        />
      ))}
    </>
  );
}
