export * from "./sharp-processor.ts";
