// TODO: replace with `import { coderTemplateSnippet } from "@/lib/reporter/coder-template"` once it lands.
export function templateSnippet(dashboardUrl: string): string {
  return `# Placeholder: the reporter's Coder template snippet is not available yet.
# Dashboard: ${dashboardUrl}
`;
}
