/** `@lineage/adapter-images/testing`: real images made by jimp, and their pixels read back. */
export { bandedImage, noisyPng, pixel } from "./image-fixtures.ts";
