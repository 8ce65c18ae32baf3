import { createJimpProcessor } from "../src/jimp-processor.ts";
import { imageProcessorContract } from "./processor.contract.ts";

imageProcessorContract("jimp in worker threads", () => createJimpProcessor({ workers: 2 }));
