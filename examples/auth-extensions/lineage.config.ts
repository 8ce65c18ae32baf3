// `lineage serve --config examples/auth-extensions/lineage.config.ts`: a module may compute its options.
import type { AuthRequest } from "@lineage/core";

export default {
  // The admin host name gets HTTP Basic; requests from the SSO proxy its header; everyone else the login form.
  authentMode: (request: AuthRequest) => {
    if (request.header("host")?.startsWith("admin.")) return "basic";
    return request.header("x-remote-user") ? "sso" : "html";
  },
  authentModeConfig: {
    sso: {
      class: "./src/proxy-header-authenticator.ts",
      config: { secret: process.env.LINEAGE_SSO_SECRET ?? "change-me-to-a-long-secret", allowedRoles: ["editor", "reader"] },
    },
    html: { config: { idleSeconds: 1800 } },
  },
  // The platform's own accounts first, then the users file.
  authentProvider: "internal,users-file",
  authentProvidersConfig: {
    "users-file": { class: "./src/users-file-provider.ts", file: "./users.json" },
  },
  sessionCookie: { samesite: "strict", httponly: true, secure: false },
};
