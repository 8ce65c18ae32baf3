import { elementFilterContract, storeContract } from "@lineage/core/testing";
import { openPostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

storeContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));
elementFilterContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));
