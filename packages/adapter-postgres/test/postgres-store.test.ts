import { folderRepositoryContract, storeContract } from "@lineage/core/testing";
import { openPostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

storeContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));
folderRepositoryContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));
