import type { ChangeClock, ChangeStamp } from "../ports/change-clock.port.ts";

/** Runs a function once the current turn's I/O callbacks have run (setImmediate on Node). */
export type AfterIo = (run: () => void) => void;

/**
 * One read of the change clock for every request received in the same turn
 * of the event loop. A request asks once it has been received; the read is
 * started after the turn's I/O callbacks, so after every request waiting on
 * it was received: as fresh for each as a read of its own, but one read for
 * all (on SQLite each read takes and drops a lock on the WAL index, system
 * calls that weigh on a cached GET).
 */
export type TurnVersion = () => Promise<ChangeStamp>;

/** A TurnVersion of the change clock; a failed read fails every request waiting on it. */
export function turnVersion(changes: ChangeClock, afterIo: AfterIo): TurnVersion {
  let pending: Promise<ChangeStamp> | undefined;
  return () => {
    pending ??= new Promise<void>((resolve) => afterIo(resolve)).then(() => {
      // Asked from now on, the clock is read again: those requests may have come after this read.
      pending = undefined;
      return changes.read();
    });
    return pending;
  };
}
