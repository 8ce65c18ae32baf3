export { createHttpAuth, type AuthentMode, type HttpAuth, type HttpAuthOptions } from "./http-auth.ts";
export { apiAuthentication, rightForMethod } from "./api-authentication.ts";
export { pageAuthentication } from "./page-authentication.ts";
export { identifyRequest, type Identification } from "./identify-request.ts";
export { toAuthRequest, clientAddressOf } from "./auth-request.ts";
export { createBasicAuthenticator, parseBasicCredentials, basicChallenge } from "./basic-authenticator.ts";
export { createOpenAuthenticator, tokenOf } from "./open-authenticator.ts";
export { createHtmlAuthenticator } from "./html-authenticator.ts";
export { DEFAULT_SESSION_COOKIE, SESSION_COOKIE, type SessionCookieOptions } from "./session-cookie.ts";
