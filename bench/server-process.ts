import { startLineage } from "@lineage/cli";

/*
 * A child process of the benchmarks: the server as `lineage serve --data DIR
 * [--images DIR | --database URL] --port 0` starts it (no bundle), with the image
 * processor named when images are served. Sends { url } over IPC once it listens;
 * exits when the parent goes away or on SIGTERM/SIGINT (so --cpu-prof is written).
 */

const [dataDir, imagesDir, processor] = process.argv.slice(2);
const databaseUrl = imagesDir?.startsWith("postgres://") ? imagesDir : undefined;
if (!dataDir || (imagesDir && !databaseUrl && processor !== "jimp" && processor !== "sharp")) {
  throw new Error("usage: server-process.ts DATA_DIR [IMAGES_DIR jimp|sharp | DATABASE_URL]");
}

const running = await startLineage({
  dataDir, port: 0, host: "127.0.0.1",
  ...(databaseUrl ? { databaseUrl } : {}),
  // 20 cold resizes queue behind one jimp worker for longer than the default request timeout.
  ...(imagesDir && !databaseUrl ? { imagesDir, imageProcessor: processor as "jimp" | "sharp", limits: { requestTimeoutMs: 300_000 } } : {}),
});
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
