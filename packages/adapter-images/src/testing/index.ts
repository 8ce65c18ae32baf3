/** `@lineage/adapter-images/testing`: real images made by jimp, and their pixels read back. */
export { bandedImage, decode, noisyPng, pixel } from "./image-fixtures.ts";
