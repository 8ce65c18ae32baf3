import pg from "pg";
import { expect, it } from "vitest";
import { openPostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

it("fails a transaction whose connection the server ends, with 503 API0110, and goes on with the next", async () => {
  const url = await freshDatabase();
  const store = await openPostgresStore({ url, log: () => {} });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ended = store.transaction(async (tx) => {
      await tx.catalog.saveEnumerate({ name: "LOST", items: [] });
      await held;
      await tx.catalog.saveEnumerate({ name: "LOST_TOO", items: [] });
    });
    // The transaction's backend, idle in its transaction, is ended as a restart would end it.
    let terminated = 0;
    for (const started = Date.now(); terminated === 0 && Date.now() - started < 5000;) {
      const { rows } = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and state = 'idle in transaction' and pid <> pg_backend_pid()",
      );
      terminated = rows.length;
      if (terminated === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(terminated).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await expect(ended).rejects.toMatchObject({ code: "API0110" });
    expect(await store.catalog.enumerate("LOST")).toBeUndefined();
    await store.catalog.saveEnumerate({ name: "KEPT", items: [] });
    expect(await store.catalog.enumerate("KEPT")).toEqual({ name: "KEPT", items: [] });
  } finally {
    await admin.end();
    await store.close();
  }
});
