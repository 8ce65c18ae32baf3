import { LineageApiError, type EnvelopeMessage } from "./lineage-api-error.ts";

/**
 * How the client authenticates (docs/authentication.md): HTTP Basic on every request, an access
 * token (`Authorization: Token …`), or a session of the login form, opened by the client with a
 * login and password (and opened again when it expires) or given as the `lineage-session` cookie.
 * Without `auth`, requests carry no credentials but the browser's own cookies (`credentials: "include"`).
 */
export type LineageAuth =
  | { readonly type: "basic"; readonly login: string; readonly password: string }
  | { readonly type: "token"; readonly token: string }
  | { readonly type: "session"; readonly login: string; readonly password: string }
  | { readonly type: "session"; readonly cookie: string };

/** What `createLineageClient` takes. */
export interface LineageClientOptions {
  /** Where the server answers: `http://localhost:8080` (a path prefix is kept: `https://host/lineage`). */
  readonly baseUrl: string;
  readonly auth?: LineageAuth;
  /** Another fetch (a test's, a proxy agent's); the global one by default. */
  readonly fetch?: typeof fetch;
  /** Headers sent with every request (`Accept-Language`…). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Query variables: undefined ones are left out, lists joined by commas. */
export type Query = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;

/** One request to the API. */
export interface ApiRequest {
  readonly method: "GET" | "PUT" | "POST" | "DELETE";
  /** From the server's root: `/api/v2/smart-elements/ART_HELLO`. */
  readonly path: string;
  readonly query?: Query | undefined;
  /** A JSON body. */
  readonly json?: unknown;
  /** A multipart body (uploads). */
  readonly form?: FormData | undefined;
  readonly headers?: Readonly<Record<string, string | undefined>> | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** A successful JSON answer: the envelope's data, with the ETag and status. */
export interface ApiAnswer<T> {
  readonly data: T;
  readonly status: number;
  readonly etag: string | undefined;
  readonly messages: readonly EnvelopeMessage[];
}

/** The HTTP layer of the client: URLs, credentials, the envelope and its errors. */
export interface Transport {
  /** A JSON route: its envelope's data, or a LineageApiError. */
  json<T>(request: ApiRequest): Promise<ApiAnswer<T>>;
  /** Any route, answered as it comes (bytes, a stream); a refusal still throws a LineageApiError. */
  raw(request: ApiRequest & { readonly accept?: string; readonly okStatuses?: readonly number[] }): Promise<Response>;
}

const SESSION_COOKIE = "lineage-session";

/** The transport of a client's options. */
export function createTransport(options: LineageClientOptions): Transport {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, "");
  const auth = options.auth;
  let sessionCookie: string | undefined = auth?.type === "session" && "cookie" in auth ? auth.cookie : undefined;
  let openingSession: Promise<string> | undefined;

  const urlOf = (path: string, query?: Query): string => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      params.set(key, Array.isArray(value) ? value.join(",") : String(value as string | number | boolean));
    }
    const search = params.toString();
    return `${base}${path}${search ? `?${search}` : ""}`;
  };

  /** Logs in with the form (its double-submitted token first): the session cookie's value. */
  const openSession = async (login: string, password: string): Promise<string> => {
    const form = await doFetch(urlOf("/login"), { headers: { accept: "text/html" }, redirect: "manual" });
    const html = await form.text();
    const csrf = /name="csrf" value="([^"]*)"/.exec(html)?.[1];
    const csrfCookie = cookieOf(form.headers, "lineage-login-csrf");
    if (!csrf || !csrfCookie) throw new LineageApiError({ code: `HTTP${form.status}`, status: form.status, message: `The login form of ${base} could not be read` });
    const answer = await doFetch(urlOf("/login"), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `lineage-login-csrf=${csrfCookie}` },
      body: new URLSearchParams({ login, password, csrf, return: "/" }).toString(),
    });
    await answer.body?.cancel();
    const session = cookieOf(answer.headers, SESSION_COOKIE);
    if (answer.status !== 303 || !session) {
      throw new LineageApiError({
        code: answer.status === 429 ? "AUTH0429" : `HTTP${answer.status}`, status: answer.status,
        message: answer.status === 429 ? "Too many failed authentication attempts" : `The login of "${login}" was refused (${answer.status})`,
        retryAfter: retryAfterOf(answer.headers),
      });
    }
    return session;
  };

  const session = async (renew: boolean): Promise<string | undefined> => {
    if (auth?.type !== "session") return undefined;
    if (!("login" in auth)) return sessionCookie;
    if (sessionCookie && !renew) return sessionCookie;
    openingSession ??= openSession(auth.login, auth.password).finally(() => {
      openingSession = undefined;
    });
    sessionCookie = await openingSession;
    return sessionCookie;
  };

  const send = async (request: ApiRequest & { readonly accept?: string }, renew = false): Promise<Response> => {
    const headers = new Headers(options.headers);
    headers.set("accept", request.accept ?? "application/json");
    for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers.set(name, value);
    if (auth?.type === "basic") headers.set("authorization", `Basic ${base64(`${auth.login}:${auth.password}`)}`);
    if (auth?.type === "token") headers.set("authorization", `Token ${auth.token}`);
    const cookie = await session(renew);
    if (cookie) headers.set("cookie", `${SESSION_COOKIE}=${cookie}`);
    let body: string | FormData | undefined;
    if (request.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(request.json);
    } else if (request.form) {
      body = request.form;
    }
    const response = await doFetch(urlOf(request.path, request.query), {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(auth ? {} : { credentials: "include" as const }),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    // A session the client opened itself that has ended: once more with a new one.
    if (response.status === 401 && auth?.type === "session" && "login" in auth && !renew) {
      await response.body?.cancel();
      return send(request, true);
    }
    return response;
  };

  return {
    async json<T>(request: ApiRequest): Promise<ApiAnswer<T>> {
      const response = await send(request);
      const envelope = await envelopeOf(response);
      if (!response.ok || !envelope?.success) throw errorOf(response, envelope);
      return { data: envelope.data as T, status: response.status, etag: response.headers.get("etag") ?? undefined, messages: envelope.messages ?? [] };
    },
    async raw(request) {
      const response = await send(request);
      if (response.ok || request.okStatuses?.includes(response.status)) return response;
      throw errorOf(response, await envelopeOf(response));
    },
  };
}

interface Envelope {
  readonly success?: boolean;
  readonly messages?: readonly EnvelopeMessage[];
  readonly data?: unknown;
  readonly exceptionMessage?: string;
}

/** The envelope of an answer, or undefined when it is not JSON. */
async function envelopeOf(response: Response): Promise<Envelope | undefined> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

/** The error of a refused answer: the envelope's first error code and message, else the status. */
function errorOf(response: Response, envelope: Envelope | undefined): LineageApiError {
  const messages = envelope?.messages ?? [];
  const first = messages.find((message) => message.type === "error") ?? messages[0];
  return new LineageApiError({
    code: first?.code ?? `HTTP${response.status}`,
    status: response.status,
    message: envelope?.exceptionMessage ?? first?.contentText ?? `${response.status} ${response.statusText}`.trim(),
    messages,
    data: envelope?.data,
    retryAfter: retryAfterOf(response.headers),
  });
}

function retryAfterOf(headers: Headers): number | undefined {
  const value = Number(headers.get("retry-after") ?? NaN);
  return Number.isFinite(value) ? value : undefined;
}

/** A cookie's value among an answer's Set-Cookie headers. */
function cookieOf(headers: Headers, name: string): string | undefined {
  const lines = typeof headers.getSetCookie === "function" ? headers.getSetCookie() : [headers.get("set-cookie") ?? ""];
  for (const line of lines) {
    const match = new RegExp(`(?:^|[,;]\\s*)${name}=([^;,]*)`).exec(line);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** Base64 of a UTF-8 text (btoa alone takes only Latin-1). */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
