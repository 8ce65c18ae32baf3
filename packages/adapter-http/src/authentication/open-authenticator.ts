import type { AuthenticationService, Authenticator, AuthRequest } from "@lineage/core";

/** The access token a request carries: `Authorization: Token …`, or the `ank-authorization` query or form variable. */
export async function tokenOf(request: AuthRequest): Promise<string | undefined> {
  const header = /^Token\s+(\S+)\s*$/i.exec(request.header("authorization") ?? "")?.[1];
  return header ?? ((await request.variable("ank-authorization")) || undefined);
}

/**
 * The `open` authenticator: access tokens (api-v2.md, Token). A valid token
 * used outside its routes authenticates but fails checkAuthorization (403);
 * a oneshot token is spent only by a use it allows.
 */
export function createOpenAuthenticator(service: AuthenticationService): Authenticator {
  const outOfRoutes = new WeakSet<AuthRequest>();
  return {
    id: "open",
    async checkAuthentication(request) {
      const token = await tokenOf(request);
      if (!token) return { kind: "anonymous" };
      const use = await service.verifyToken(token, request.method, request.path, request.clientAddress, request.stamp);
      if (use.kind === "refused") return { kind: "refused", reason: "Invalid or expired access token" };
      if (use.kind === "out-of-routes") outOfRoutes.add(request);
      return { kind: "authenticated", principal: use.principal };
    },
    askAuthentication: () => ({ kind: "challenge" }),
    checkAuthorization: (request) => !outOfRoutes.has(request),
  };
}
