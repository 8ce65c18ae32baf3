import { describe, expect, it } from "vitest";
import { elementFilterContract, eventLogContract, folderRepositoryContract, lockRepositoryContract, storeContract, webhookRepositoryContract } from "@lineage/core/testing";
import { openPostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

storeContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));
elementFilterContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));
eventLogContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));
webhookRepositoryContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));

describe("the event log's watchers on PostgreSQL", () => {
  it("are woken by another node's commits, through a connection that listens from the first watcher on", async () => {
    const url = await freshDatabase();
    const [a, b] = [await openPostgresStore({ url }), await openPostgresStore({ url })];
    try {
      let calls = 0;
      const stop = a.watchEvents!(() => calls++);
      const event = { type: "element.deleted" as const, time: new Date().toISOString(), initid: 1, id: 1, name: null, structure: "X", revision: 0, state: null, actor: "b" };
      // The connection starts listening a moment after the first watcher: b commits until a hears of one.
      for (const giveUp = Date.now() + 5000; calls === 0; await new Promise((resolve) => setTimeout(resolve, 50))) {
        expect(Date.now()).toBeLessThan(giveUp);
        await b.transaction((tx) => tx.events.append(event));
      }
      stop();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
folderRepositoryContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));
lockRepositoryContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));
