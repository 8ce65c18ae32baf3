import { imageProcessorContract } from "@lineage/adapter-images/testing";
import { createSharpProcessor } from "../src/sharp-processor.ts";

imageProcessorContract("sharp", () => createSharpProcessor());
