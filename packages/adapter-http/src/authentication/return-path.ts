/**
 * Where to send the browser after login: a path on this site only (an
 * open redirect would let a phishing link borrow our login page).
 */
export function safeReturnPath(candidate: string | undefined): string {
  if (!candidate || !candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\")) return "/";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(candidate) || candidate.length > 2000) return "/";
  return candidate;
}
