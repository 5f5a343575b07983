import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { coderSignInConfigured } from "@/lib/auth/coder";
import { config } from "@/lib/config";
import { oidcConfigured } from "@/lib/auth/oidc";
import { currentUser } from "@/lib/auth/page";
import { needsSetup } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { safeNextPath, signInErrorMessage } from "@/lib/validations/auth";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function SignInPage({ searchParams }: Props) {
  const params = await searchParams;
  // Only a path on this site: a crafted link cannot send someone elsewhere after signing in.
  const next = safeNextPath(one(params.next));
  if (await needsSetup(await getDb())) redirect("/setup");
  if (await currentUser()) redirect(next);
  // Single sign-on failures come back here as ?error=&error_description= (Better Auth's callback).
  const error = signInErrorMessage(one(params.error), one(params.error_description));
  return (
    <SignInForm
      next={next}
      sso={oidcConfigured() ? config().oidc.displayName : null}
      coder={coderSignInConfigured()}
      error={error}
    />
  );
}
