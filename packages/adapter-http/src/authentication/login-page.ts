import { escapeHtml, htmlPage } from "./html-page.ts";

export interface LoginPageState {
  readonly csrf: string;
  readonly returnTo: string;
  readonly login?: string;
  /** An error shown above the form (role=alert, read out by screen readers). */
  readonly error?: string;
  readonly notice?: string;
}

/** The login form: server-rendered, works without JavaScript, every field labelled. */
export function loginPage(state: LoginPageState): string {
  const error = state.error ? `<p class="message" role="alert" id="login-error">${escapeHtml(state.error)}</p>\n` : "";
  const notice = state.notice ? `<p class="notice" role="status">${escapeHtml(state.notice)}</p>\n` : "";
  const describedBy = state.error ? ' aria-describedby="login-error"' : "";
  return htmlPage("Log in", `<main>
<h1>Log in to Lineage</h1>
${notice}${error}<form method="post" action="/login"${describedBy}>
<input type="hidden" name="csrf" value="${escapeHtml(state.csrf)}">
<input type="hidden" name="return" value="${escapeHtml(state.returnTo)}">
<label for="login">Login</label>
<input id="login" name="login" type="text" autocomplete="username" required autofocus value="${escapeHtml(state.login ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>
</main>`);
}
