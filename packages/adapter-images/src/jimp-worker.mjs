// A worker thread of the jimp processor (plain JavaScript, so it loads the same under node, tsx and vitest).
// Messages in: { id, source: Uint8Array, plan, mime }; out: { id, bytes } or { id, error }.
import { parentPort } from "node:worker_threads";
import { Jimp } from "jimp";

const QUALITY = { "image/jpeg": { quality: 85 } };

// Every failure is caught and posted back: nothing of a resize can reject unseen.
parentPort.on("message", (message) => void resize(message));

async function resize({ id, source, plan, mime }) {
  try {
    const image = await Jimp.fromBuffer(Buffer.from(source.buffer, source.byteOffset, source.byteLength));
    if (!plan.keep) {
      image.resize({ w: plan.width, h: plan.height });
      if (plan.crop) image.crop({ x: plan.crop.left, y: plan.crop.top, w: plan.crop.width, h: plan.crop.height });
    }
    const encoded = await image.getBuffer(mime, QUALITY[mime] ?? {});
    const bytes = new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
    parentPort.postMessage({ id, bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
}
