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
  return (
    <>
      <DebouncedInput
        type="text"
        placeholder="Owner"
        aria-label="Filter by owner"
        value={owner}
        onChange={onOwner}
        className="w-130"
      />
      <DebouncedInput
        type="text"
        placeholder="Template"
        aria-label="Filter by template"
        value={template}
        onChange={onTemplate}
        className="w-150"
      />
    </>
  );
}
