// The task of a jimp worker thread, run by piscina (plain JavaScript, so it loads the same under node, tsx and vitest).
// In: { source: Uint8Array, plan, mime }; out: the encoded bytes, moved to the caller. A failure rejects the task.
import { Jimp } from "jimp";
import { move } from "piscina";

const QUALITY = { "image/jpeg": { quality: 85 } };

export default async function resize({ source, plan, mime }) {
  const image = await Jimp.fromBuffer(Buffer.from(source.buffer, source.byteOffset, source.byteLength));
  if (!plan.keep) {
    image.resize({ w: plan.width, h: plan.height });
    if (plan.crop) image.crop({ x: plan.crop.left, y: plan.crop.top, w: plan.crop.width, h: plan.crop.height });
  }
  const encoded = await image.getBuffer(mime, QUALITY[mime] ?? {});
  // Moved, not copied, unless the bytes share their memory with others (Node's pool of small buffers).
  const whole = encoded.byteOffset === 0 && encoded.byteLength === encoded.buffer.byteLength;
  return move(whole ? new Uint8Array(encoded.buffer) : Uint8Array.from(encoded));
}
