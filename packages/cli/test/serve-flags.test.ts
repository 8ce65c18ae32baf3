import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { LineageConfigSchema } from "../src/config/config-schema.ts";
import { flagsOfConfig, serveSettings } from "../src/serve-flags.ts";
import { UsageError } from "../src/usage-error.ts";

describe("lineage serve limit flags and the config file's limits key", () => {
  it("parse sizes, counts and seconds, with defaults for the rest", () => {
    expect(serveSettings({ "max-body": "20MiB", "max-upload": "512k", "max-slice": "50", "request-timeout": "2.5", "shutdown-grace": "0" })).toEqual({
      limits: { maxBodyBytes: 20 * 1024 * 1024, maxUploadBytes: 512 * 1024, maxSlice: 50, requestTimeoutMs: 2500 },
      shutdownGraceMs: 0, shutdownDelayMs: 0, logLevel: "info", synchronous: "full",
    });
  });

  it("refuse values that cannot be used, naming the flag", () => {
    for (const flags of [{ "max-body": "lots" }, { "max-body": "0" }, { "max-slice": "-1" }, { "request-timeout": "0" }, { "log-level": "loud" }, { synchronous: "off" }, { "max-header": "9999999999999g" }]) {
      expect(() => serveSettings(flags)).toThrow(UsageError);
      expect(() => serveSettings(flags)).toThrow(`--${Object.keys(flags)[0]}`);
    }
  });

  it("read the config file's limits (flags win), and the schema refuses unknown limit keys", () => {
    const config = v.parse(LineageConfigSchema, { limits: { "max-body": "1k", "request-timeout": 60, synchronous: "normal" } });
    const settings = serveSettings({ ...flagsOfConfig(config.limits), "request-timeout": "5" });
    expect(settings.limits).toEqual({ maxBodyBytes: 1024, requestTimeoutMs: 5000 });
    expect(settings.synchronous).toBe("normal");
    expect(v.safeParse(LineageConfigSchema, { limits: { "max-bodies": 1 } }).success).toBe(false);
  });
});
