import { openLineage, readBundleFile } from "@lineage/cli";
import { readFileSync } from "node:fs";

/*
 * A child process of the benchmark: imports one bundle into a fresh data
 * directory (or database) as `lineage import --data DIR [--database URL] FILE` does (openLineage, then close),
 * then, apart, times reading and parsing the same file alone. Sends the
 * figures over IPC.
 */

const [dataDir, bundlePath, databaseUrl] = process.argv.slice(2);
if (!dataDir || !bundlePath) throw new Error("usage: import-process.ts DATA_DIR BUNDLE [DATABASE_URL]");

const seconds = (from: number) => (performance.now() - from) / 1000;
/** A line of /proc/self/status in kB (VmRSS, VmHWM). */
const statusKb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? NaN);

const started = performance.now();
const { store, imports } = await openLineage({ dataDir, databaseUrl }, [bundlePath]);
const importSeconds = seconds(started);
const closing = performance.now();
await store.close();
const closeSeconds = seconds(closing);
const peakRssKb = statusKb("VmHWM");

const parsing = performance.now();
readBundleFile(bundlePath);
const parseSeconds = seconds(parsing);

process.send?.({ importSeconds, closeSeconds, parseSeconds, peakRssKb, report: imports[0] }, () => process.disconnect());
