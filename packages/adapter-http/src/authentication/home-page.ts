import type { Principal } from "@lineage/core";
import { escapeHtml, htmlPage } from "./html-page.ts";

const API_LINKS = [
  ["/api/v2/smart-elements/", "Smart Elements"],
  ["/api/v2/trash/", "Trash"],
];

/** The home page: who is logged in, the way to the console, a logout button (for sessions), and links into the API. */
export function homePage(principal: Principal | undefined, logoutCsrf: string | undefined): string {
  const links = `<h2>The API</h2>\n<ul>\n${API_LINKS.map(([href, text]) => `<li><a href="${href}">${text}</a></li>`).join("\n")}\n</ul>`;
  if (!principal) {
    return htmlPage("Home", `<main>
<h1>Lineage</h1>
<p id="who">You are browsing as a guest. <a href="/login?return=%2F">Log in</a></p>
</main>`);
  }
  const { account } = principal;
  const roles = [...principal.roles].sort();
  const logout = logoutCsrf
    ? `<form method="post" action="/logout">
<input type="hidden" name="csrf" value="${escapeHtml(logoutCsrf)}">
<button type="submit">Log out</button>
</form>`
    : "<p>Authenticated for this request only (no session to close).</p>";
  return htmlPage("Home", `<main>
<h1>Lineage</h1>
<p id="who">Logged in as <strong>${escapeHtml(account.displayName)}</strong> (<code>${escapeHtml(account.login)}</code>)${roles.length ? `, roles: ${escapeHtml(roles.join(", "))}` : ""}.</p>
<p><a id="console" href="/console/">Open the console</a>: browse and search the content.</p>
${logout}
${links}
</main>`);
}
