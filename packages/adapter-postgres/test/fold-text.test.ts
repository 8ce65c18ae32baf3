import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldCase } from "@lineage/core";
import { freshDatabase } from "../src/testing/fresh-database.ts";

/*
 * lineage_fold (migration 0008, scripts/fold-text-sql.ts) folds as core's foldCase, JavaScript's
 * toLowerCase: the text operators of a filter compare what it gives (filter-sql.ts). The
 * server's lower() under the C locale folds ASCII only; ICU's is older than Node's.
 */

let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: await freshDatabase() });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
});

/** Every code point PostgreSQL's text may hold (no U+0000, no lone surrogate). */
const CODE_POINTS = Array.from({ length: 0x10ffff }, (_, i) => i + 1).filter((cp) => cp < 0xd800 || cp > 0xdfff);

/** A few seeded texts around capital sigmas (whose final form depends on the letters around it) and letters newer than the server's ICU. */
function sigmaTexts(count: number): string[] {
  const pieces = ["Σ", "Α", "a", " ", ".", "'", "\u0301", "ʰ", "Ა", "ა", "\u1ac1", "1", "İ", "É", "ß", "\u00ad", "Ω", "𐐀", "ΣΣ"];
  let seed = 20261127;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 6) }, () => pieces[Math.floor(next() * pieces.length)]).join(""));
}

/** The texts `fn` folds otherwise than foldCase. */
async function unlike(fn: string, texts: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (let i = 0; i < texts.length; i += 50_000) {
    const part = texts.slice(i, i + 50_000);
    const { rows } = await client.query<{ folded: string }>(`select ${fn}(t) as folded from unnest($1::text[]) with ordinality as u(t, n) order by n`, [part]);
    rows.forEach((row, j) => {
      if (row.folded !== foldCase(part[j]!)) found.push(part[j]!);
    });
  }
  return found;
}

describe("lineage_fold", () => {
  it("folds every code point, and texts around a capital sigma, as JavaScript does", async () => {
    const texts = [...CODE_POINTS.map((cp) => String.fromCodePoint(cp)), ...sigmaTexts(20_000), "ÉTÉ", "Ωmega", "İstanbul", "ΟΔΟΣ ΟΔΟΣ.", "𝄞 Clef"];
    expect(await unlike("lineage_fold", texts)).toEqual([]);
  }, 120_000);

  it("without ICU folds as JavaScript does too (the table of its mappings)", async () => {
    // Slow by design (translate() scans the table for each character): the code points JavaScript folds, those it folds
    // to, and every hundredth other one.
    const mapped = CODE_POINTS.filter((cp, i) => String.fromCodePoint(cp).toLowerCase() !== String.fromCodePoint(cp) || i % 100 === 0);
    const targets = mapped.flatMap((cp) => [...String.fromCodePoint(cp).toLowerCase()]);
    const texts = [...mapped.map((cp) => String.fromCodePoint(cp)), ...targets, ...sigmaTexts(5_000), "ÉTÉ été", "ΟΔΟΣ ΟΔΟΣ."];
    expect(await unlike("lineage_fold_without_icu", texts)).toEqual([]);
  }, 120_000);

  it("is null for null, and leaves ASCII-only texts to lower() under the C collation", async () => {
    const { rows } = await client.query("select lineage_fold(null) as a, lineage_fold('HeLLo World 42') as b, lineage_fold('') as c");
    expect(rows[0]).toEqual({ a: null, b: "hello world 42", c: "" });
  });
});
