import { Worker } from "node:worker_threads";

/** A job's answer from a worker: the bytes, or the text of the error it raised. */
type Answer = { id: number; bytes: Uint8Array } | { id: number; error: string };

interface Job {
  readonly id: number;
  readonly message: Record<string, unknown>;
  readonly transfer: ArrayBuffer[];
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

export interface WorkerPool {
  /** Runs one job on the first free worker; `transfer` buffers are moved, not copied. */
  run(message: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<Uint8Array>;
  /** How many jobs have been started (for tests of single-flight and caching). */
  readonly started: number;
  close(): Promise<void>;
}

/**
 * A fixed pool of worker threads running `script`, one job per worker at a time, the rest queued.
 * A worker that dies (out of memory, crash) fails its job and is replaced.
 */
export function createWorkerPool(script: URL, size: number): WorkerPool {
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  const queue: Job[] = [];
  let nextId = 1;
  let started = 0;
  let closed = false;

  function spawn(): void {
    const worker = new Worker(script);
    worker.on("message", (answer: Answer) => {
      const job = busy.get(worker);
      busy.delete(worker);
      if (job) {
        if ("error" in answer) job.reject(new Error(answer.error));
        else job.resolve(answer.bytes);
      }
      worker.unref();
      idle.push(worker);
      dispatch();
    });
    worker.on("error", (error) => {
      busy.get(worker)?.reject(error);
    });
    worker.on("exit", () => {
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(new Error("image worker exited"));
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      if (!closed) {
        spawn();
        dispatch();
      }
    });
    // An idle worker must not keep the process alive (a CLI command, a test run); a busy one does.
    worker.unref();
    idle.push(worker);
  }

  function dispatch(): void {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop() as Worker;
      const job = queue.shift() as Job;
      busy.set(worker, job);
      worker.ref();
      started++;
      worker.postMessage({ id: job.id, ...job.message }, job.transfer);
    }
  }

  for (let i = 0; i < size; i++) spawn();

  return {
    get started() {
      return started;
    },
    run(message, transfer = []) {
      if (closed) return Promise.reject(new Error("the image worker pool is closed"));
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, message, transfer, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error("the image worker pool is closed"));
      await Promise.all([...idle, ...busy.keys()].map((worker) => worker.terminate()));
    },
  };
}
