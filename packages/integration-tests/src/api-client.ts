import { answeredMethod, expectDocumentedAnswer } from "./openapi-answers.ts";

/** A small client for end-to-end tests against a listening server; every answer must match the OpenAPI document. */
export function apiClient(baseUrl: string) {
  const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
  async function call(method: string, path: string, options: { as?: [string, string] | null; headers?: Record<string, string>; body?: RequestInit["body"]; json?: unknown; redirect?: "follow" | "manual" | "error" } = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.as !== null) headers.authorization ??= basic(...(options.as ?? ["admin", "admin-pw"]));
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] ??= "application/json";
    }
    const init = { method, headers, redirect: options.redirect ?? "follow", ...(body === undefined ? {} : { body }) } as const;
    const response = await fetch(`${baseUrl}${path}`, init).catch((error: unknown) => {
      // The server and the test share one event loop: after a test held it longer than the server's keep-alive
      // timeout (checking a large document), fetch may reuse the connection the server is closing that moment.
      // A GET sent on it was never read: sent again, on a new connection.
      if (method !== "GET" || (error as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw error;
      return fetch(`${baseUrl}${path}`, init);
    });
    const text = await response.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    // fetch follows redirects: the answer checked is then the GET of where it landed, not the request's own.
    const answered = response.redirected
      ? { method: "GET", url: new URL(response.url).pathname + new URL(response.url).search }
      : { method: answeredMethod(method, headers), url: path };
    expectDocumentedAnswer({ ...answered, status: response.status, contentType: response.headers.get("content-type"), body: text });
    return { status: response.status, headers: response.headers, text, json };
  }
  return { call, basic, baseUrl };
}
