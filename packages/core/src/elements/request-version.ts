import type { Store } from "../ports/store.port.ts";

/**
 * The store's version as one request sees it: read when first asked, then the
 * same for the rest of the request. The version-checked caches a request goes
 * through (its principal, the element it reads) then share one read instead of
 * paying one each: on SQLite a read takes and drops a lock on the WAL index,
 * system calls that weigh on a cached GET. Read after the request began, it is
 * as fresh as a read of their own: whatever was committed before the request is
 * seen. Not for use after the request has written. The HTTP adapter takes its
 * requests' versions from turnVersion: one read for the requests of a turn of the event loop.
 */
export type RequestVersion = () => string | undefined;

/** A RequestVersion of the store, read once at most. */
export function requestVersion(store: Pick<Store, "version">): RequestVersion {
  let read = false;
  let version: string | undefined;
  return () => {
    if (!read) {
      version = store.version();
      read = true;
    }
    return version;
  };
}
