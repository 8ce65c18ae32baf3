import { describe, expect, it } from "vitest";
import { parseImageSize, planResize, plannedDimensions } from "../src/images/image-size.ts";

const LANDSCAPE = { width: 400, height: 300 };
const PORTRAIT = { width: 300, height: 600 };
const SMALL = { width: 20, height: 10 };

/** size, original, expected output dimensions (what a client decodes). */
const TABLE: ReadonlyArray<[string, { width: number; height: number }, [number, number]]> = [
  ["200", LANDSCAPE, [200, 150]],
  ["x150", LANDSCAPE, [200, 150]],
  ["100x100", LANDSCAPE, [100, 75]],
  ["100x100f", LANDSCAPE, [100, 75]],
  ["100x100c", LANDSCAPE, [100, 100]],
  ["100x100s", LANDSCAPE, [100, 100]],
  ["24x24c", LANDSCAPE, [24, 24]],
  ["150", PORTRAIT, [150, 300]],
  ["x100", PORTRAIT, [50, 100]],
  ["100x100", PORTRAIT, [50, 100]],
  ["100x100c", PORTRAIT, [100, 100]],
  ["60x20s", PORTRAIT, [60, 20]],
  ["3", SMALL, [3, 2]],
  ["x1", SMALL, [2, 1]],
  // Never larger than the original: clamped as the original platform does.
  ["800", LANDSCAPE, [400, 300]],
  ["x900", LANDSCAPE, [400, 300]],
  ["800x900", LANDSCAPE, [400, 300]],
  ["800x900c", LANDSCAPE, [400, 300]],
  ["800x900s", LANDSCAPE, [400, 300]],
  ["400", LANDSCAPE, [400, 300]],
  ["800x150", LANDSCAPE, [200, 150]],
  ["200x900", LANDSCAPE, [200, 150]],
  ["800x100c", LANDSCAPE, [400, 100]],
  ["100x900c", LANDSCAPE, [100, 300]],
  ["800x100s", LANDSCAPE, [400, 100]],
  ["100x900s", LANDSCAPE, [100, 300]],
  ["24x24c", SMALL, [20, 10]],
  ["24x5c", SMALL, [20, 5]],
];

describe("image sizes: parsing and geometry", () => {
  it.each(TABLE)("%s of %o gives %o", (text, original, [width, height]) => {
    const plan = planResize(parseImageSize(text, "i.png"), original);
    expect(plannedDimensions(plan, original)).toEqual({ width, height });
  });

  it("keeps the original (no resize at all) when every asked dimension is clamped", () => {
    for (const text of ["800", "x900", "800x900", "800x900c", "400x300s", "400x300"]) {
      expect(planResize(parseImageSize(text, "i.png"), LANDSCAPE)).toEqual({ keep: true });
    }
  });

  it("covers then crops the centre: offsets are floor((resized - box) / 2)", () => {
    expect(planResize(parseImageSize("100x100c", "i"), LANDSCAPE)).toEqual({
      keep: false, width: 133, height: 100, crop: { left: 16, top: 0, width: 100, height: 100 },
    });
    expect(planResize(parseImageSize("100x100c", "i"), PORTRAIT)).toEqual({
      keep: false, width: 100, height: 200, crop: { left: 0, top: 50, width: 100, height: 100 },
    });
  });

  it.each(["", "x", "abc", "48c", "x48c", "10x", "x10x10", "10x10z", "10x10cs", "-5", "0", "x0", "0x10", "10x0c", "1e3", "10 ", "1234567890", "10x10C"])(
    "refuses the size %j with 400 CRUD0603",
    (text) => {
      expect(() => parseImageSize(text, "photo.png")).toThrow(expect.objectContaining({
        code: "CRUD0603", status: 400, message: `Cannot resize image "photo.png" : incorrect size "${text}"`,
      }));
    },
  );
});
