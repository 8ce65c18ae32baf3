#!/usr/bin/env node
// Node 20 cannot run TypeScript itself: tsx's loader is registered first.
import { register } from "tsx/esm/api";
register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
