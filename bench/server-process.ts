import { startLineage } from "@lineage/cli";

/*
 * A child process of the benchmark: the server as `lineage serve --data DIR
 * --port 0` starts it (no bundle). Sends { url } over IPC once it listens;
 * exits when the parent goes away or on SIGTERM/SIGINT (so --cpu-prof is written).
 */

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: server-process.ts DATA_DIR");

const running = await startLineage({ dataDir, port: 0, host: "127.0.0.1" });
let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  running.close().then(() => process.exit(0), () => process.exit(1));
};
process.on("disconnect", stop);
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.send?.({ url: running.url });
