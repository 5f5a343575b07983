import { keepRequest, ownerPreviewRequest, ownerRecipeUpdate, ownerRunRequestBody } from "@/lib/validations/owners";
import type { Operation } from "./operation";

// The owners' routes (My storage) and the admins' side of them: which recipes owners may run, and every Keep.
export const OWNER_OPERATIONS: Record<string, Operation> = {
  "GET /api/v1/cleanup/owner-recipes": {
    summary: "Which recipes owners may run on their own workspaces",
    tag: "cleanup",
    responseType: "{ recipes: { recipe, ownersMayRun }[] }",
  },
  "PUT /api/v1/cleanup/owner-recipes": {
    summary: "Mark a recipe 'owners may run', or not (never a package cache)",
    tag: "cleanup",
    body: ownerRecipeUpdate,
  },
  "GET /api/v1/cleanup/keeps": {
    summary: "Every Keep in force: workspace, owner, path, expiry",
    tag: "cleanup",
    responseType: "{ keeps: KeepRow[] }",
  },
  "DELETE /api/v1/cleanup/keeps/[id]": { summary: "End anyone's Keep", tag: "cleanup" },
  "GET /api/v1/me/storage": {
    summary: "My storage: the caller's own workspaces, what to run on them, their trash and Keeps",
    tag: "owners",
    responseType: "MyStorage",
  },
  "POST /api/v1/me/cleanup/preview": {
    summary: "What the owner's run of a recipe would move to the trash on their workspace (404: not theirs)",
    tag: "owners",
    body: ownerPreviewRequest,
    responseType: "OwnerPreview",
  },
  "POST /api/v1/me/cleanup/runs": {
    summary: "The owner's run, to the trash, bound to the preview they saw (404: not theirs; 409: it moved)",
    tag: "owners",
    body: ownerRunRequestBody,
    status: 201,
  },
  "POST /api/v1/me/cleanup/jobs/[id]/restore": {
    summary: "Restore what a job moved to the trash on the owner's workspace (409: its trash expired)",
    tag: "owners",
    status: 201,
  },
  "POST /api/v1/me/keeps": {
    summary: "Keep a unit or folder of the owner's workspace from every cleanup for 1-14 days",
    tag: "owners",
    body: keepRequest,
    status: 201,
  },
  "DELETE /api/v1/me/keeps/[id]": { summary: "End the owner's own Keep", tag: "owners" },
};
