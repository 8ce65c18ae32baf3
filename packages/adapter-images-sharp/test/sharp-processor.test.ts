import { imageProcessorContract } from "@lineage/core/testing";
import { createSharpProcessor } from "../src/sharp-processor.ts";

imageProcessorContract("sharp", () => createSharpProcessor());
