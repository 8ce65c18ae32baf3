import { LineageError, type AuthenticationChallenge, type Authenticator, type AuthRequest, type Principal } from "@lineage/core";
import type { HttpAuth } from "./http-auth.ts";

/** The authentication flow's outcome for one request (api-v2.md, Authentication flow). */
export type Identification =
  | { readonly kind: "authenticated"; readonly principal: Principal; readonly authenticator: Authenticator }
  /** No credentials: ask for them. */
  | { readonly kind: "ask"; readonly challenge: AuthenticationChallenge; readonly authenticator: Authenticator }
  /** Wrong credentials. */
  | { readonly kind: "refused"; readonly reason: string; readonly authenticator: Authenticator }
  /** Authenticated, but the authenticator's authorization check said no. */
  | { readonly kind: "forbidden"; readonly principal: Principal; readonly authenticator: Authenticator };

/**
 * The authenticator of a request, in the original's order (original-notes.md
 * 2.13): `authtype`, then an `ank-authorization` variable, then the scheme
 * of the Authorization header, then the configured mode. So credentials a
 * request carries are honoured whatever the mode (bundle.md).
 */
export async function selectAuthenticator(auth: HttpAuth, request: AuthRequest): Promise<Authenticator> {
  const pick = (id: string) => auth.authenticators.get(id.toLowerCase());
  const authtype = request.url.searchParams.get("authtype");
  if (authtype) return pick(authtype) ?? refuseScheme(authtype);
  const header = request.header("authorization");
  if (header) {
    const scheme = /^([A-Za-z0-9]+)(?:\s|$)/.exec(header)?.[1] ?? header;
    const lower = scheme.toLowerCase();
    if (lower === "token") return pick("open")!;
    if (lower === "basic") return pick("basic")!;
    return refuseScheme(scheme);
  }
  if (await request.variable("ank-authorization")) return pick("open")!;
  const mode = await auth.mode(request);
  const authenticator = pick(mode);
  if (!authenticator) throw new Error(`authentMode chose "${mode}", which is no configured authenticator`);
  return authenticator;
}

function refuseScheme(scheme: string): never {
  throw new LineageError("AUTH0402", [scheme.slice(0, 40)]);
}

/** Runs check, ask, and the authenticator's own authorization for a request. */
export async function identifyRequest(auth: HttpAuth, request: AuthRequest): Promise<Identification> {
  const authenticator = await selectAuthenticator(auth, request);
  const result = await authenticator.checkAuthentication(request);
  if (result.kind === "anonymous") return { kind: "ask", challenge: authenticator.askAuthentication(request), authenticator };
  if (result.kind === "refused") return { kind: "refused", reason: result.reason, authenticator };
  const allowed = await authenticator.checkAuthorization(request, result.principal);
  return { kind: allowed ? "authenticated" : "forbidden", principal: result.principal, authenticator };
}
