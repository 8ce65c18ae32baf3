import * as v from "valibot";
import { loginRefused, unreadable } from "./superset-failure.ts";
import type { SupersetConnection } from "./superset-connection.ts";
import { exchange, jsonOf, serverMessage, type Exchange, type TransportOptions } from "./superset-transport.ts";

const LoginAnswerSchema = v.object({ access_token: v.pipe(v.string(), v.minLength(1)) });

/** Authenticated requests to Superset with one bearer token, kept between calls. */
export interface SupersetSession {
  /**
   * A GET with the bearer token: logs in first when there is none, and logs
   * in once again when the server refuses the token (401: expired, or the
   * server restarted with new keys).
   */
  get(path: string): Promise<Exchange>;
}

/**
 * A session that logs in at `/api/v1/security/login` with the connection's
 * provider. Concurrent callers share one login in flight; a failed login is
 * not remembered, so the next call tries again.
 */
export function createSupersetSession(transport: TransportOptions, connection: SupersetConnection): SupersetSession {
  let pending: Promise<string> | undefined;
  let current: string | undefined;

  async function logIn(): Promise<string> {
    const answer = await exchange(transport, "POST", "/api/v1/security/login", {
      json: { username: connection.username, password: connection.password, provider: connection.provider, refresh: true },
    });
    // Superset answers 401 for wrong credentials and 400 for a refused payload (unknown provider...).
    if (answer.status === 400 || answer.status === 401 || answer.status === 403) {
      throw loginRefused(answer.site, connection.username, `status ${answer.status}${serverMessage(answer)}`);
    }
    const parsed = v.safeParse(LoginAnswerSchema, jsonOf(answer));
    if (!parsed.success) throw unreadable(answer.site, "the answer has no access_token");
    current = parsed.output.access_token;
    return current;
  }

  function token(): Promise<string> {
    if (!pending) {
      const login = logIn();
      pending = login;
      login.catch(() => {
        if (pending === login) pending = undefined;
      });
    }
    return pending;
  }

  return {
    async get(path) {
      const used = await token();
      const answer = await exchange(transport, "GET", path, { bearer: used });
      if (answer.status !== 401) return answer;
      // Only the first caller refused with this token starts a new login; the others wait for it.
      if (current === used) {
        current = undefined;
        pending = undefined;
      }
      const renewed = await token();
      const retried = await exchange(transport, "GET", path, { bearer: renewed });
      if (retried.status === 401) {
        throw loginRefused(retried.site, connection.username, `a new token was refused too (status 401${serverMessage(retried)})`);
      }
      return retried;
    },
  };
}
