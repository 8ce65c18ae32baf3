const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#039;" };

/** `alt=html`: the JSON inside a textarea, for clients without XMLHttpRequest v2. */
export function wrapJsonInHtml(json: string): string {
  return `<html><body><textarea>${json.replace(/[&<>"']/g, (c) => escapes[c] ?? c)}</textarea></body></html>`;
}
