import type { Principal } from "@lineage/core";
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { PAGE_HEADERS } from "../authentication/html-page.ts";
import { consoleLanguage, consoleText } from "./console-text.ts";

/** What the console's pages are made of: text escaped by `html`, or a fragment it made. */
export type Fragment = HtmlEscapedString | Promise<HtmlEscapedString>;

/**
 * The headers of the platform's pages, with the console's own images (icons, thumbnails) allowed
 * and its own script (console.js, which asks the console's suggestions); no other script, never framed.
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  ...PAGE_HEADERS,
  "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'",
};

// Readable on a phone (tables scroll inside their box; a fieldset, min-content wide by default, may shrink
// below its widest option), focus always visible, colours of AA contrast.
const STYLE = `
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;line-height:1.5;color:#1d1d1f;background:#fafafa}
a{color:#0b57d0}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #e8a317;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}
header{background:#1f3b57;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
header a{color:#fff}
header nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0}
header nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header form{margin-left:auto;display:flex;gap:.5rem;align-items:center}
main{max-width:72rem;margin:0 auto;padding:1rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #ddd;vertical-align:top}
th{background:#eef1f5}
td.number{text-align:right}
button,input,select,textarea{font:inherit;padding:.3rem .6rem}
.state{display:inline-block;width:.8rem;height:.8rem;border-radius:50%;margin-right:.4rem;vertical-align:middle;border:1px solid #555}
.pages{display:flex;gap:1rem;margin:1rem 0}
.alert{padding:.6rem;border-radius:4px;background:#fde8e8;color:#8a1c1c}
mark{background:#ffe38a}
img.thumb{max-width:96px;max-height:96px}
ol.timeline{list-style:none;padding:0;border-left:3px solid #1f3b57}
ol.timeline li{margin:0 0 1rem 1rem}
fieldset{border:1px solid #ccc;background:#fff;min-width:0}
.actions{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin:1rem 0}
form.inline{display:inline}
.field{margin:.8rem 0}
.field label,.field .label{display:block;font-weight:600}
.tab-list ul{display:flex;flex-wrap:wrap;gap:.4rem 1rem;list-style:none;padding:0;margin:.6rem 0;border-bottom:1px solid #ccc}
fieldset.frame{margin:.8rem 0;border:1px solid #ccc;padding:.4rem .8rem}
section.tab,section.frame{margin:1rem 0}
.field input:not([type=checkbox]),.field select,.field textarea{width:100%;max-width:36rem}
[aria-invalid=true]{border:2px solid #b3261e}
ul.plain{list-style:none;padding:0;flex-wrap:wrap}
.hint{color:#555;font-size:.9em;margin:.2rem 0}
tr.differs th,tr.differs td{background:#fff4d6}
.badge{display:inline-block;font-size:.8em;font-weight:600;padding:0 .4rem;border-radius:3px;background:#8a5a00;color:#fff}
.secret,.notice{padding:.6rem;border-radius:4px;background:#e6f4ea;color:#1e4620;margin:1rem 0}
.secret input{font-family:monospace;max-width:100%}
.guard{color:#8a1c1c}
.html{overflow-wrap:anywhere}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.with-panel{display:flex;flex-wrap:wrap;gap:1rem 2rem;align-items:flex-start}
.list-main{flex:1 1 36rem;min-width:0}
.panel{flex:0 1 18rem;background:#fff;border:1px solid #ddd;border-radius:4px;padding:0 1rem;min-width:0}
.panel h2{font-size:1.1rem}
.filter-bar fieldset{display:flex;flex-direction:column;gap:.4rem}
.filter-row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;margin:0}
.filter-part{display:flex;flex-direction:column;font-size:.9em;min-width:0;max-width:100%}
.filter-part select,.filter-part input{max-width:100%}
fieldset.filter-part{border:0;padding:0;margin:0}
.bulk{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.5rem 0}
.bulk select{max-width:100%}
.total{font-weight:600;margin:.5rem 0}
ul.pages{display:flex;gap:.5rem;align-items:center}
ul.pages a[aria-current=page]{font-weight:700;text-decoration:none;border:2px solid #1f3b57;padding:0 .4rem;border-radius:3px}
label.choice{display:inline-block;margin-right:.8rem}
button.danger{background:#b3261e;color:#fff;border:1px solid #8a1c1c;border-radius:3px}
.flash form{margin-left:.5rem}
.home{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:0 2rem}
ul.short li{margin:.4rem 0}
ul.short .hint{display:block}
.picker{position:relative;max-width:36rem}
.picker ul.suggestions{position:absolute;z-index:3;left:0;right:0;margin:0;padding:0;list-style:none;background:#fff;border:1px solid #555;max-height:16rem;overflow-y:auto}
.picker [role=option]{padding:.3rem .6rem;cursor:pointer}
.picker [role=option][aria-selected=true]{background:#1f3b57;color:#fff}
.picker li.hint{padding:.3rem .6rem}
ul.tree{list-style:none;margin:0;padding:0}
ul.tree ul.tree{padding-left:1.6rem;border-left:2px solid #ddd;margin-left:.5rem}
ul.tree label.choice{display:block;padding:.15rem 0;font-weight:400}
.toolbar{display:flex;flex-wrap:wrap;gap:.25rem;max-width:36rem;margin:.2rem 0}
.editable{background:#fff;border:1px solid #767676;min-height:8rem;max-width:36rem;padding:.3rem .6rem;overflow-wrap:anywhere}
@media (max-width:40rem){header form{margin-left:0}main{padding:.5rem}}
`;

export interface ConsolePageOptions {
  readonly title: string;
  readonly principal: Principal;
  /** The session's form token, for the logout button; none when the request carries no session. */
  readonly logoutCsrf: string | undefined;
  /** The navigation entry of this page. */
  readonly current?: "home" | "structures" | "elements" | "trash" | "search" | "dashboards" | "admin";
}

/** A whole page of the console: navigation, the person, and `body` as its main content. */
export function consolePage(options: ConsolePageOptions, body: Fragment): Fragment {
  const { account } = options.principal;
  const t = consoleText(account.locale);
  const entry = (key: NonNullable<ConsolePageOptions["current"]>, href: string, label: string) =>
    html`<li><a href="${href}"${options.current === key ? html` aria-current="page"` : ""}>${label}</a></li>`;
  return html`<!doctype html>
<html lang="${consoleLanguage(account.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Lineage</title>
<style>${STYLE}</style>
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">${t.skip}</a>
<header>
<strong>Lineage</strong>
<nav aria-label="${t.console}"><ul>
${entry("home", "/console/", t.home)}
${entry("structures", "/console/structures", t.structures)}
${entry("elements", "/console/elements", t.allElements)}
${entry("trash", "/console/trash", t.trash)}
${entry("search", "/console/search", t.search)}
${entry("dashboards", "/console/dashboards", t.dashboards)}
${options.principal.isAdmin ? entry("admin", "/console/admin", t.administration) : ""}
</ul></nav>
<form method="post" action="/logout">
<span>${t.signedInAs} <strong>${account.displayName}</strong></span>
${options.logoutCsrf ? html`<input type="hidden" name="csrf" value="${options.logoutCsrf}"><button type="submit">${t.logOut}</button>` : ""}
</form>
</header>
<main id="main" tabindex="-1">
<h1>${options.title}</h1>
${body}
</main>
</body>
</html>`;
}
