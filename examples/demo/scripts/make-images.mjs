// Draws the demo bundle's images (structure icons under images/, pictures
// under files/) and writes them as PNG with node:zlib only.
// Run from anywhere: node examples/demo/scripts/make-images.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";

const demo = join(dirname(fileURLToPath(import.meta.url)), "..");

// ---------- PNG encoding ----------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGBA PNG of a canvas; every row uses filter 0 (none). */
function encodePng(canvas) {
  const { width, height, pixels } = canvas;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // depth 8, RGBA, deflate, filter 0, no interlace
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    raw.set(pixels.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

// ---------- Drawing ----------

function createCanvas(width, height) {
  return { width, height, pixels: new Uint8Array(width * height * 4) };
}

const hex = (color) => [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t));

/** Blends a color over a pixel with coverage `alpha` (0..1). */
function blend(canvas, x, y, rgb, alpha = 1) {
  if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height || alpha <= 0) return;
  const i = (y * canvas.width + x) * 4;
  const p = canvas.pixels;
  const a = Math.min(1, alpha);
  const under = p[i + 3] / 255;
  const out = a + under * (1 - a);
  for (let c = 0; c < 3; c++) p[i + c] = Math.round((rgb[c] * a + p[i + c] * under * (1 - a)) / (out || 1));
  p[i + 3] = Math.round(out * 255);
}

/** Paints every pixel whose centre is inside `shape` (a signed distance: < 0 inside), anti-aliased over one pixel. */
function paint(canvas, color, distance, bounds = [0, 0, canvas.width, canvas.height]) {
  const rgb = typeof color === "string" ? hex(color) : color;
  const [x0, y0, x1, y1] = bounds.map(Math.round);
  for (let y = Math.max(0, y0 - 1); y < Math.min(canvas.height, y1 + 1); y++) {
    for (let x = Math.max(0, x0 - 1); x < Math.min(canvas.width, x1 + 1); x++) {
      blend(canvas, x, y, rgb, 0.5 - distance(x + 0.5, y + 0.5));
    }
  }
}

const circle = (canvas, cx, cy, r, color) =>
  paint(canvas, color, (x, y) => Math.hypot(x - cx, y - cy) - r, [cx - r, cy - r, cx + r, cy + r]);

const rect = (canvas, x0, y0, x1, y1, color, radius = 0) =>
  paint(canvas, color, (x, y) => {
    const dx = Math.max(x0 + radius - x, x - (x1 - radius), 0);
    const dy = Math.max(y0 + radius - y, y - (y1 - radius), 0);
    return Math.hypot(dx, dy) - radius;
  }, [x0, y0, x1, y1]);

function line(canvas, ax, ay, bx, by, width, color) {
  const length2 = (bx - ax) ** 2 + (by - ay) ** 2 || 1;
  paint(canvas, color, (x, y) => {
    const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length2));
    return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))) - width / 2;
  }, [Math.min(ax, bx) - width, Math.min(ay, by) - width, Math.max(ax, bx) + width, Math.max(ay, by) + width]);
}

function verticalGradient(canvas, top, bottom) {
  const [a, b] = [hex(top), hex(bottom)];
  for (let y = 0; y < canvas.height; y++) {
    const rgb = mix(a, b, y / (canvas.height - 1));
    for (let x = 0; x < canvas.width; x++) blend(canvas, x, y, rgb);
  }
}

/** A deterministic pseudo-random sequence, so the files are the same on every run. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

// ---------- Pictures ----------

function articleIcon() {
  const c = createCanvas(64, 64);
  rect(c, 12, 6, 52, 58, "#3B6EA5", 5);
  rect(c, 15, 9, 49, 55, "#FFFFFF", 3);
  rect(c, 19, 14, 45, 20, "#3B6EA5", 1);
  for (const y of [26, 32, 38, 44]) rect(c, 19, y, y === 44 ? 36 : 45, y + 2.5, "#9AA5B1", 1);
  return c;
}

function authorIcon() {
  const c = createCanvas(64, 64);
  circle(c, 32, 32, 30, "#E69F00");
  circle(c, 32, 24, 11, "#FFFFFF");
  paint(c, "#FFFFFF", (x, y) => {
    const inEllipse = Math.hypot((x - 32) / 19, (y - 54) / 15) - 1;
    return Math.max(inEllipse * 15, Math.hypot(x - 32, y - 32) - 28);
  });
  return c;
}

function contactIcon() {
  const c = createCanvas(64, 64);
  rect(c, 4, 12, 60, 52, "#009E73", 6);
  rect(c, 8, 16, 56, 48, "#FFFFFF", 3);
  circle(c, 22, 28, 6, "#009E73");
  rect(c, 13, 37, 31, 43, "#009E73", 3);
  for (const y of [24, 31, 38]) rect(c, 36, y, 51, y + 3, "#7F8C8D", 1.5);
  return c;
}

function sunrise() {
  const c = createCanvas(480, 300);
  verticalGradient(c, "#1D3557", "#F4A261");
  circle(c, 240, 215, 60, "#FFD166");
  const next = random(7);
  for (const [base, color, roughness] of [[210, "#6D597A", 45], [240, "#355070", 30], [270, "#22333B", 18]]) {
    const heights = Array.from({ length: 13 }, () => base - next() * roughness);
    paint(c, color, (x, y) => {
      const t = (x / 480) * 12;
      const i = Math.min(11, Math.floor(t));
      const h = heights[i] + (heights[i + 1] - heights[i]) * (t - i);
      return h - y;
    });
  }
  return c;
}

function circuit() {
  const c = createCanvas(480, 300);
  verticalGradient(c, "#0B3D2E", "#14532D");
  const next = random(42);
  for (let k = 0; k < 28; k++) {
    let x = Math.round(next() * 24) * 20;
    let y = Math.round(next() * 15) * 20;
    for (let s = 0; s < 4; s++) {
      const horizontal = next() < 0.5;
      const step = (next() < 0.5 ? -1 : 1) * 20 * (1 + Math.floor(next() * 3));
      const [nx, ny] = horizontal ? [x + step, y] : [x, y + step];
      line(c, x, y, nx, ny, 3, "#C9A227");
      [x, y] = [nx, ny];
    }
    circle(c, x, y, 5, "#F1C40F");
    circle(c, x, y, 2, "#0B3D2E");
  }
  rect(c, 190, 100, 290, 200, "#1F2937", 6);
  for (let i = 0; i < 5; i++) {
    rect(c, 178, 110 + i * 18, 190, 114 + i * 18, "#C9A227");
    rect(c, 290, 110 + i * 18, 302, 114 + i * 18, "#C9A227");
  }
  return c;
}

function galaxy() {
  const c = createCanvas(400, 400);
  verticalGradient(c, "#03001C", "#120136");
  const next = random(2024);
  for (let k = 0; k < 700; k++) {
    const arm = k % 2;
    const t = next() * 4.2;
    const angle = t * 1.4 + arm * Math.PI + (next() - 0.5) * 0.5;
    const r = 12 + t * 40 + (next() - 0.5) * 16;
    const color = mix(hex("#FFF3B0"), hex("#8ECAE6"), Math.min(1, t / 4));
    circle(c, 200 + Math.cos(angle) * r, 200 + Math.sin(angle) * r * 0.7, 0.6 + next() * 1.4, color);
  }
  circle(c, 200, 200, 16, "#FFF8E1");
  for (let k = 0; k < 60; k++) circle(c, next() * 400, next() * 400, 0.5 + next(), "#FFFFFF");
  return c;
}

function growthChart() {
  const c = createCanvas(420, 280);
  rect(c, 0, 0, 420, 280, "#FFFFFF");
  for (let y = 40; y <= 240; y += 40) rect(c, 40, y, 400, y + 1, "#E5E7EB");
  line(c, 40, 240, 400, 240, 2, "#374151");
  line(c, 40, 20, 40, 240, 2, "#374151");
  const values = [30, 45, 42, 70, 95, 120, 160, 190];
  values.forEach((v, i) => rect(c, 55 + i * 43, 240 - v, 85 + i * 43, 240, i === values.length - 1 ? "#D55E00" : "#0072B2", 3));
  const points = values.map((v, i) => [70 + i * 43, 240 - v - 14]);
  points.slice(1).forEach(([x, y], i) => line(c, points[i][0], points[i][1], x, y, 3, "#009E73"));
  for (const [x, y] of points) circle(c, x, y, 4, "#009E73");
  return c;
}

function portrait(background, skin, hair, shirt) {
  const c = createCanvas(128, 128);
  rect(c, 0, 0, 128, 128, background);
  paint(c, shirt, (x, y) => Math.hypot((x - 64) / 46, (y - 132) / 40) * 40 - 40);
  rect(c, 56, 74, 72, 94, skin, 4);
  circle(c, 64, 58, 24, hair);
  circle(c, 64, 62, 21, skin);
  paint(c, hair, (x, y) => Math.max(Math.hypot(x - 64, y - 56) - 24, y - 50));
  circle(c, 56, 62, 2.5, "#1F2937");
  circle(c, 72, 62, 2.5, "#1F2937");
  line(c, 58, 73, 70, 73, 2, "#9B2C2C");
  return c;
}

const pictures = {
  "images/article.png": articleIcon(),
  "images/author.png": authorIcon(),
  "images/contact.png": contactIcon(),
  "files/cover-sunrise.png": sunrise(),
  "files/cover-circuit.png": circuit(),
  "files/cover-galaxy.png": galaxy(),
  "files/chart-growth.png": growthChart(),
  "files/portrait-jane.png": portrait("#A8DADC", "#F1C27D", "#6B4226", "#1D3557"),
  "files/portrait-pierre.png": portrait("#FFE8D6", "#E0AC69", "#2D2D2D", "#6D597A"),
  "files/portrait-sakura.png": portrait("#F8EDEB", "#FFDBAC", "#111111", "#E63946"),
};

for (const [path, canvas] of Object.entries(pictures)) {
  const file = join(demo, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, encodePng(canvas));
  console.log(`${path} ${canvas.width}x${canvas.height}`);
}
