/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A whole page of the platform's own screens: no script, no outside resource. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Lineage</title>
<style>
body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#222}
label{display:block;margin-top:1rem;font-weight:600}
input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
button{font:inherit;margin-top:1.2rem;padding:.4rem 1.2rem}
.message{padding:.6rem;border-radius:4px;background:#fde8e8;color:#8a1c1c}
.notice{padding:.6rem;border-radius:4px;background:#e8f4fd;color:#1c4a8a}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Security headers of every page: no framing (clickjacking of the login form), no script at all. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
  "Referrer-Policy": "same-origin",
};
