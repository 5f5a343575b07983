// npm run manifest: writes deploy/kubernetes/storage-dashboard.yaml, the Helm chart rendered for `kubectl apply`
// where Helm is not used. Its test (tests/integration/helm-chart.test.ts) fails when the file is not up to date.
import fs from "node:fs";
import { PLAIN_MANIFEST, plainManifest } from "./lib/plain-manifest";

fs.writeFileSync(PLAIN_MANIFEST, plainManifest());
console.log(`wrote ${PLAIN_MANIFEST}`);
