import { startLineage } from "@lineage/cli";

/*
 * A child process of the Images benchmark: `lineage serve --data DATA --images DIR --port 0`, with the
 * image processor named (jimp or sharp). Sends { url } over IPC once it listens; exits when the parent goes away.
 */

const [dataDir, imagesDir, processor] = process.argv.slice(2);
if (!dataDir || !imagesDir || (processor !== "jimp" && processor !== "sharp")) throw new Error("usage: images-server.ts DATA_DIR IMAGES_DIR jimp|sharp");

// 20 cold resizes queue behind one jimp worker for longer than the default request timeout.
const running = await startLineage({ dataDir, imagesDir, port: 0, host: "127.0.0.1", imageProcessor: processor, limits: { requestTimeoutMs: 300_000 } });
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
