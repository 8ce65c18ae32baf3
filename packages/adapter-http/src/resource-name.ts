import { LineageError } from "@lineage/core";

export type ResourceFormat = "json" | "xml" | "csv" | "html";

/** A path segment split into its resource name and the format its suffix asks for (`12.json`, `ART.xml`). */
export function splitFormat(segment: string, allowed: readonly ResourceFormat[] = ["json"]): { name: string; format: ResourceFormat | undefined } {
  const match = /^(.*)\.([A-Za-z0-9]+)$/.exec(segment);
  if (!match) return { name: segment, format: undefined };
  const extension = (match[2] ?? "").toLowerCase();
  if (!(allowed as readonly string[]).includes(extension)) throw new LineageError("API0005", [extension]);
  return { name: match[1] ?? "", format: extension as ResourceFormat };
}

/** True when an Accept header names text/event-stream (the live stream of events, as EventSource asks for it). */
export function acceptsEventStream(accept: string | undefined): boolean {
  return (accept ?? "").split(",").some((part) => part.split(";")[0]?.trim().toLowerCase() === "text/event-stream");
}

/** True when an Accept header lets the API answer JSON; no header means JSON. */
export function acceptsJson(accept: string | undefined): boolean {
  if (!accept || !accept.trim()) return true;
  return accept
    .split(",")
    .map((part) => part.split(";")[0]?.trim().toLowerCase())
    .some((type) => type === "application/json" || type === "*/*" || type === "application/*");
}
