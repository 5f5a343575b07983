// The Terraform module that runs the reporter in Coder workspaces (deploy/coder), as this dashboard serves it: by
// Terraform's module registry protocol, as an archive URL, or for copying into a template. Pure: the registry's
// routes, the Connect page and the tests read it. scripts/build-module.mjs writes the archives it names.
import { z } from "zod";
import { NotFoundError } from "@/lib/errors";
import pkg from "@/package.json";

/** The module's address on a dashboard's host: <host>/coder/storage-reporter/coder. */
export const REPORTER_MODULE = {
  namespace: "coder",
  name: "storage-reporter",
  provider: "coder",
  /**
   * The dashboard's own version: the dashboard serves only the module it was built with, so a workspace runs the
   * reporter of the dashboard it reports to.
   */
  version: pkg.version,
} as const;

/**
 * The version constraint a template pins: any release of the same major version. An exact pin would fail
 * `terraform init` after every upgrade of the dashboard, which serves only its own version.
 */
export const moduleVersionConstraint = () => `~> ${REPORTER_MODULE.version.split(".")[0]}.0`;

/** Where the registry protocol's routes live, as service discovery announces them. */
export const MODULES_V1_PATH = "/terraform/modules/v1/";

/** The module's archive for this version (the registry's download points here), and its unversioned twin. */
export const moduleArchivePath = (version: string = REPORTER_MODULE.version) =>
  `/terraform/${REPORTER_MODULE.name}-${version}.tar.gz`;
export const LATEST_ARCHIVE_PATH = `/terraform/${REPORTER_MODULE.name}.tar.gz`;

type ModulePath = { namespace: string; name: string; provider: string; version?: string };

/** 404 unless the registry path names the module (and version) this dashboard serves. */
export function requireReporterModule(p: ModulePath): void {
  const { namespace, name, provider } = REPORTER_MODULE;
  if (p.namespace !== namespace || p.name !== name || p.provider !== provider) {
    throw new NotFoundError(`This registry serves only ${namespace}/${name}/${provider}.`);
  }
  if (p.version !== undefined && p.version !== REPORTER_MODULE.version) {
    throw new NotFoundError(
      `This dashboard serves version ${REPORTER_MODULE.version} of the module only (its own), not ${p.version}.`,
    );
  }
}

/** The registry protocol's answers, as Terraform reads them. */
export const discoveryResponse = z.object({ "modules.v1": z.string() });
export const moduleVersionsResponse = z.object({
  modules: z.array(z.object({ versions: z.array(z.object({ version: z.string() })) })),
});
