/**
 * Where to send the browser after login: a path on this site only (an
 * open redirect would let a phishing link borrow our login page).
 */
export function safeReturnPath(candidate: string | undefined, fallback = "/"): string {
  if (!candidate || !candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(candidate) || candidate.length > 2000) return fallback;
  return candidate;
}

/** Where a person lands after login when no page was asked for (or only the bare `/`): the console's home. */
export const LANDING_PATH = "/console/";

/** Where to send the browser after login: the page asked for, on this site; the console's home otherwise. */
export function afterLoginPath(candidate: string | undefined): string {
  return candidate === "/" ? LANDING_PATH : safeReturnPath(candidate, LANDING_PATH);
}
