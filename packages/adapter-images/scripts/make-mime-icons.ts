// Draws the MIME-type icons Lineage ships as built-in assets (assets/mime/png/<name>.png, and
// assets/<name>.png for the icons of the top-level types, where the original links them): a page
// with a folded corner and a band in the colour of the kind of file. One per path core's table uses.
// The same page with a grey band is the default icon of elements (assets/doc.png, core's DEFAULT_ICON);
// a person is the icon of accounts (assets/se-iuser.png, core's ACCOUNT_ICON).
// Run from the repository root: node --conditions=@lineage/source --import tsx packages/adapter-images/scripts/make-mime-icons.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ACCOUNT_ICON, DEFAULT_ICON, MIME_ICON_FILES } from "@lineage/core";
import { Jimp, rgbaToInt } from "jimp";

const SIZE = 32;
const assets = fileURLToPath(new URL("../assets/", import.meta.url));

/** The band's colour of an icon name, by the kind of file it names. */
function colourOf(name: string): [number, number, number] {
  const kinds: Array<[RegExp, [number, number, number]]> = [
    [/pdf/, [211, 47, 47]],
    [/wordprocessing/, [30, 99, 196]],
    [/spreadsheet/, [31, 139, 58]],
    [/presentation/, [224, 113, 43]],
    [/image|vectorgfx/, [142, 68, 173]],
    [/sound|audio/, [22, 160, 133]],
    [/video/, [194, 24, 91]],
    [/tgz|tar|zip|rpm/, [141, 110, 99]],
    [/html|xml/, [249, 168, 37]],
    [/source|shell|make|executable/, [69, 90, 100]],
    [/tex/, [0, 131, 143]],
    [/calendar/, [92, 107, 192]],
    [/address/, [109, 76, 65]],
    [/font/, [55, 71, 79]],
  ];
  return kinds.find(([pattern]) => pattern.test(name))?.[1] ?? [117, 117, 117];
}

async function icon(name: string): Promise<Buffer> {
  const image = new Jimp({ width: SIZE, height: SIZE, color: 0x00000000 });
  const paint = (x0: number, y0: number, x1: number, y1: number, [r, g, b]: [number, number, number]) => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) image.setPixelColor(rgbaToInt(r, g, b, 255), x, y);
  };
  const [left, top, right, bottom, fold] = [5, 2, 26, 29, 7];
  const border: [number, number, number] = [138, 138, 138];
  paint(left, top, right, bottom, border);
  paint(left + 1, top + 1, right - 1, bottom - 1, [255, 255, 255]);
  // The folded corner: cut the top right triangle, then draw the fold.
  for (let y = top; y < top + fold; y++) {
    for (let x = right - fold + 1 + (y - top); x <= right; x++) image.setPixelColor(0x00000000, x, y);
    image.setPixelColor(rgbaToInt(...border, 255), right - fold + 1 + (y - top), y);
  }
  paint(right - fold + 1, top, right - fold + 1, top + fold - 1, border);
  paint(right - fold + 1, top + fold - 1, right, top + fold - 1, border);
  for (const y of [8, 11, 14]) paint(left + 3, y, right - 6, y, [190, 190, 190]);
  paint(left + 1, 18, right - 1, 25, colourOf(name));
  return image.getBuffer("image/png");
}

/** A person: a head and shoulders, in the grey of the pages' borders. */
async function person(): Promise<Buffer> {
  const image = new Jimp({ width: SIZE, height: SIZE, color: 0x00000000 });
  const colour = rgbaToInt(96, 125, 139, 255);
  const inside = (x: number, y: number, cx: number, cy: number, rx: number, ry: number) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      if (inside(x + 0.5, y + 0.5, 16, 10, 6, 6.5) || (y >= 19 && inside(x + 0.5, y + 0.5, 16, 30, 12, 11))) image.setPixelColor(colour, x, y);
    }
  }
  return image.getBuffer("image/png");
}

for (const path of MIME_ICON_FILES) {
  mkdirSync(dirname(`${assets}${path}`), { recursive: true });
  writeFileSync(`${assets}${path}`, await icon(path.replace(/^.*\//, "").replace(/\.png$/, "")));
}
writeFileSync(`${assets}${DEFAULT_ICON}`, await icon(DEFAULT_ICON));
writeFileSync(`${assets}${ACCOUNT_ICON}`, await person());
console.log(`${MIME_ICON_FILES.length} icons written to ${assets}, the default icon ${DEFAULT_ICON}, the accounts' ${ACCOUNT_ICON}`);
