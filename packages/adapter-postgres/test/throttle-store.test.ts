import { afterAll, expect, it } from "vitest";
import { throttleStoreContract } from "@lineage/core/testing";
import { openPostgresStore, type PostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

const opened: PostgresStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});
async function open(url: string): Promise<PostgresStore> {
  const store = await openPostgresStore({ url });
  opened.push(store);
  return store;
}

const shared = freshDatabase();
// The contract counts at times of its own (from 1000 ms after the epoch): the store's background
// refresh and purge must use the same time, or they would purge its rows as 55 years old.
throttleStoreContract("postgres", async () => (await open(await shared)).throttleStore({ now: () => 0 }));

it("counts the failures of two nodes together, and shows another node's in the copy within a refresh", async () => {
  const url = await freshDatabase();
  const a = (await open(url)).throttleStore({ refreshMs: 20 });
  const b = (await open(url)).throttleStore({ refreshMs: 20 });
  const now = Date.now();
  await a.fail(["account:ann"], now, 60_000);
  expect(await b.fail(["account:ann"], now + 1, 60_000)).toEqual([{ failures: 2, lastFailureAt: now + 1 }]);
  expect(a.peek!(["account:ann"], now + 2, 60_000)[0]?.failures).toBe(1);
  let seen = 1;
  for (const started = Date.now(); seen !== 2 && Date.now() - started < 2000;) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    seen = a.peek!(["account:ann"], now + 2, 60_000)[0]?.failures ?? 0;
  }
  expect(seen).toBe(2);
  await b.forget(["account:ann"]);
  expect(await a.read(["account:ann"], now + 3, 60_000)).toEqual([undefined]);
});
