export { main, type Io } from "./main.ts";
export { openLineage, startLineage, type LineageOptions, type RunningLineage } from "./start-lineage.ts";
export { readBundleFile, type BundleFile } from "./bundle-file.ts";
