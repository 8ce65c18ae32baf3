import type { Store } from "../ports/store.port.ts";
import type { RequestVersion } from "./request-version.ts";

/** Runs a function once the current turn's I/O callbacks have run (setImmediate on Node). */
export type AfterIo = (run: () => void) => void;

/**
 * One read of the store's version for every request received in the same turn
 * of the event loop. A request asks once it has been received; the read is made
 * after the turn's I/O callbacks (setImmediate's check phase), so after every
 * request waiting on it was received: as fresh for each as a read of its own,
 * but one read for all. On SQLite each read takes and drops a lock on the WAL
 * index, system calls which weigh on a cached GET, and more so in a VM.
 */
export type TurnVersion = () => Promise<RequestVersion>;

/** A TurnVersion of the store; a failed read fails every request waiting on it. */
export function turnVersion(store: Pick<Store, "version">, afterIo: AfterIo = setImmediate): TurnVersion {
  let pending: Promise<RequestVersion> | undefined;
  return () => {
    pending ??= new Promise((resolve, reject) => {
      afterIo(() => {
        // Asked from now on, the version is read again: those requests may have come after this read.
        pending = undefined;
        try {
          const version = store.version();
          resolve(() => version);
        } catch (error) {
          reject(error);
        }
      });
    });
    return pending;
  };
}
