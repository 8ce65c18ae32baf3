import type { EnumItem } from "../packages/core/src/index.ts";

/*
 * A bundle (spec/bundle.md) with one large hierarchical enumerate, for the
 * Enumerates benchmark: 100 regions, each with 99 places under it (10 000
 * items), labels in English and French (with accents), keys holding dots.
 * Deterministic: no randomness, no clock.
 */

export const ENUM_NAME = "BENCH_PLACES";
/** A three-item enumerate: the same route with nothing to search, the app's own cost. */
export const TINY_ENUM_NAME = "BENCH_TINY";
export const ENUM_STRUCTURE = "BENCH_SITE";
export const ENUM_FIELD = "bs_place";
/** The admin account (English). */
export const ENUM_LOGIN = "bench";
export const ENUM_PASSWORD = "bench-pw";
/** A plain account reading in French. */
export const FRENCH_LOGIN = "lecteur";
export const FRENCH_PASSWORD = "lecteur-pw";

const CITIES = [
  "Saint-Étienne", "Besançon", "Orléans", "Nîmes", "Périgueux", "Angoulême", "Béziers", "Châlons", "Évry", "Sète",
  "Paris", "Lyon", "Nantes", "Lille", "Rennes", "Reims", "Toulouse", "Brest", "Metz", "Caen",
  "Amiens", "Dijon", "Grenoble", "Limoges", "Nancy", "Poitiers", "Rouen", "Tours", "Valence", "Vannes",
  "Ajaccio", "Bastia", "Calais", "Chartres", "Colmar", "Quimper", "Roanne", "Troyes",
] as const;

const KINDS: ReadonlyArray<{ en: string; fr: string }> = [
  { en: "School", fr: "École" },
  { en: "Library", fr: "Bibliothèque" },
  { en: "Station", fr: "Gare" },
  { en: "Market", fr: "Marché" },
  { en: "Hospital", fr: "Hôpital" },
  { en: "Theatre", fr: "Théâtre" },
  { en: "Museum", fr: "Musée" },
  { en: "Stadium", fr: "Stade" },
  { en: "Town hall", fr: "Hôtel de ville" },
  { en: "Swimming pool", fr: "Piscine" },
  { en: "Post office", fr: "Bureau de poste" },
];

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** The items: region `r.NNN` (NNN from 001 to `regions`), then its places `r.NNN.p.MM`. */
export function enumerateItems(regions = 100, placesPerRegion = 99): EnumItem[] {
  const items: EnumItem[] = [];
  for (let r = 1; r <= regions; r++) {
    const city = CITIES[(r * 7) % CITIES.length] as string;
    const region = `r.${pad(r, 3)}`;
    items.push({ key: region, label: { en: `${city} area ${r}`, fr: `Région de ${city} ${r}` } });
    for (let p = 1; p <= placesPerRegion; p++) {
      const kind = KINDS[(r + p) % KINDS.length] as { en: string; fr: string };
      const near = CITIES[(r * 13 + p * 5) % CITIES.length] as string;
      items.push({
        key: `${region}.p.${pad(p, 2)}`,
        label: { en: `${kind.en} of ${near} ${r}-${p}`, fr: `${kind.fr} de ${near} ${r}-${p}` },
        parentKey: region,
      });
    }
  }
  return items;
}

/** The bundle: two accounts, the enumerate, a structure with an enum field of it. */
export function enumerateBundle(items: readonly EnumItem[] = enumerateItems()) {
  return {
    accounts: {
      users: [
        { login: ENUM_LOGIN, password: ENUM_PASSWORD, roles: ["admin"], locale: "en" },
        { login: FRENCH_LOGIN, password: FRENCH_PASSWORD, locale: "fr", rights: ["GET"] },
      ],
    },
    enumerates: {
      [ENUM_NAME]: items,
      [TINY_ENUM_NAME]: [{ key: "s", label: "Small" }, { key: "m", label: "Medium" }, { key: "l", label: "Large" }],
    },
    structures: [
      {
        name: ENUM_STRUCTURE,
        title: { en: "Site", fr: "Site" },
        titleField: "bs_name",
        fields: [
          { id: "bs_name", type: "text", label: "Name", needed: true },
          { id: ENUM_FIELD, type: "enum", enum: ENUM_NAME, label: { en: "Place", fr: "Lieu" } },
        ],
      },
    ],
  };
}
