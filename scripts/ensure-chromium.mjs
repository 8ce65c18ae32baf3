// The browser tests drive Debian's chromium (playwright-core never downloads a
// browser here), so the test command installs it when it is missing.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

export const CHROMIUM = "/usr/bin/chromium";

/** Installs Debian's chromium with apt when it is missing; false when that is not possible. */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  const apt = process.getuid?.() === 0 ? ["apt-get"] : ["sudo", "-n", "apt-get"];
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const run = (...args) => spawnSync(apt[0], [...apt.slice(1), ...args], { stdio: "inherit", env }).status === 0;
  console.log(`${CHROMIUM} is missing: installing Debian's chromium for the browser tests`);
  if (run("update", "-qq") && run("install", "-y", "-qq", "chromium") && existsSync(CHROMIUM)) return true;
  console.error("Could not install chromium: run 'apt-get install chromium' as root, then the tests again.");
  return false;
}
