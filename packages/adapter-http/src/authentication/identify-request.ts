import { LineageError, type AuthenticationChallenge, type Authenticator, type AuthRequest, type Principal } from "@lineage/core";
import type { HttpAuth } from "./http-auth.ts";

/** The authentication flow's outcome for one request (api-v2.md, Authentication flow). */
export type Identification =
  | { readonly kind: "authenticated"; readonly principal: Principal; readonly authenticator: Authenticator; readonly formToken?: string | undefined }
  /** No credentials: ask for them. */
  | { readonly kind: "ask"; readonly challenge: AuthenticationChallenge; readonly authenticator: Authenticator }
  /** Wrong credentials. */
  | { readonly kind: "refused"; readonly reason: string; readonly authenticator: Authenticator }
  /** Authenticated, but the authenticator's authorization check said no. */
  | { readonly kind: "forbidden"; readonly principal: Principal; readonly authenticator: Authenticator };

const pick = (auth: HttpAuth, id: string) => auth.authenticators.get(id.toLowerCase());

/**
 * The authenticator `authtype`, a token in the query or the Authorization header names, if any:
 * known without waiting on anything.
 */
function namedAuthenticator(auth: HttpAuth, request: AuthRequest): Authenticator | undefined {
  const { searchParams } = request.url;
  const authtype = searchParams.get("authtype");
  if (authtype) return pick(auth, authtype) ?? refuseScheme(authtype);
  if (searchParams.get("ank-authorization")) return pick(auth, "open")!;
  const header = request.header("authorization");
  if (!header) return undefined;
  const scheme = /^([A-Za-z0-9]+)(?:\s|$)/.exec(header)?.[1] ?? header;
  const lower = scheme.toLowerCase();
  if (lower === "token") return pick(auth, "open")!;
  if (lower === "basic") return pick(auth, "basic")!;
  return refuseScheme(scheme);
}

/** Otherwise: open for an `ank-authorization` form variable, else the configured mode's. */
async function configuredAuthenticator(auth: HttpAuth, request: AuthRequest): Promise<Authenticator> {
  if (await request.variable("ank-authorization")) return pick(auth, "open")!;
  const mode = await auth.mode(request);
  const authenticator = pick(auth, mode);
  if (!authenticator) throw new Error(`authentMode chose "${mode}", which is no configured authenticator`);
  return authenticator;
}

function refuseScheme(scheme: string): never {
  throw new LineageError("AUTH0402", [scheme.slice(0, 40)]);
}

/**
 * Runs check, ask, and the authenticator's own authorization for a request. The authenticator is
 * chosen in the original's order (original-notes.md 2.13): `authtype`, then an `ank-authorization`
 * query variable, then the scheme of the Authorization header, then (ours) an `ank-authorization`
 * form variable, then the configured mode. So credentials a request carries are honoured whatever
 * the mode (bundle.md).
 */
export async function identifyRequest(auth: HttpAuth, request: AuthRequest): Promise<Identification> {
  // Awaited only when it has to be: each await costs every request a turn of the microtask queue.
  const authenticator = namedAuthenticator(auth, request) ?? (await configuredAuthenticator(auth, request));
  const result = await authenticator.checkAuthentication(request);
  if (result.kind === "anonymous") return { kind: "ask", challenge: authenticator.askAuthentication(request), authenticator };
  if (result.kind === "refused") return { kind: "refused", reason: result.reason, authenticator };
  const checked = authenticator.checkAuthorization(request, result.principal);
  const allowed = typeof checked === "boolean" ? checked : await checked;
  return allowed ? { kind: "authenticated", principal: result.principal, authenticator, formToken: result.formToken } : { kind: "forbidden", principal: result.principal, authenticator };
}
