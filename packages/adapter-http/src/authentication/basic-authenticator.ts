import type { AuthenticationService, Authenticator } from "@lineage/core";

/** Decodes `Authorization: Basic …`; undefined when the header is not Basic or is malformed. */
export function parseBasicCredentials(header: string): { login: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The `Basic realm=…` challenge of 401 answers. */
export const basicChallenge = (realm = "Lineage") => `Basic realm="${realm}", charset="UTF-8"`;

/** The `basic` authenticator: HTTP Basic on every request, checked through the providers. */
export function createBasicAuthenticator(service: AuthenticationService, options: { realm?: string } = {}): Authenticator {
  const challenge = basicChallenge(options.realm);
  return {
    id: "basic",
    async checkAuthentication(request) {
      const header = request.header("authorization");
      if (!header) return { kind: "anonymous" };
      const credentials = parseBasicCredentials(header);
      if (!credentials) return { kind: "refused", reason: "malformed Basic credentials" };
      const principal = await service.verifyPassword(credentials.login, credentials.password, request.clientAddress, request.stamp);
      return principal ? { kind: "authenticated", principal } : { kind: "refused", reason: "Username and/or password is incorrect" };
    },
    askAuthentication: () => ({ kind: "challenge", wwwAuthenticate: challenge }),
    checkAuthorization: () => true,
  };
}
