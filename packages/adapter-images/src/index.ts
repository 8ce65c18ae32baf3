export * from "./create-jimp-images.ts";
export * from "./fs-image-store.ts";
export * from "./jimp-processor.ts";
