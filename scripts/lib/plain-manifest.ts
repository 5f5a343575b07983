// The plain manifest is the chart rendered with these values; edit the chart, then `npm run manifest`.
import { renderChart } from "./chart-render";

export const CHART_DIR = "deploy/helm/coder-storage";
export const PLAIN_MANIFEST = "deploy/kubernetes/storage-dashboard.yaml";

const HEADER = `# The storage dashboard beside Coder in its namespace, for kubectl where Helm is not used. Made from the Helm chart
# (deploy/helm/coder-storage) by \`npm run manifest\`: edit the chart, not this file. Before applying, create its
# Secret and set the image (a registry you push to) and the URLs:
#   kubectl create secret generic storage-dashboard --namespace coder \\
#     --from-literal=DATABASE_URL='postgres://storage:...@postgres.coder.svc.cluster.local:5432/storage' \\
#     --from-literal=BETTER_AUTH_SECRET="$(openssl rand -base64 32)" \\
#     --from-literal=STORAGE_ENROLLMENT_KEY="$(openssl rand -hex 24)"
#   kubectl apply --namespace coder -f storage-dashboard.yaml
`;

export function plainManifest(): string {
  const rendered = renderChart(CHART_DIR, {
    releaseName: "storage-dashboard",
    values: {
      secrets: { existingSecret: "storage-dashboard" },
      publicUrl: "https://storage.example.com",
      coderUrl: "https://coder.example.com",
    },
  });
  const docs = [...rendered.values()].map((s) => s.trim()).filter(Boolean);
  return HEADER + docs.map((d) => `---\n${d}\n`).join("");
}
