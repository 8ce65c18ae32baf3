import { translate, type Label } from "../i18n/label.ts";

/**
 * The history comments of the API's writes. The original translates them into the writer's
 * language when it writes them (its French catalogue gives these texts), so a line reads in the
 * language of whoever made the change, whoever reads it later.
 */
const API_HISTORY = {
  created: { en: "Created by API", fr: "Créé par l'API" },
  updated: { en: "Updated by API", fr: "mise à jour par l'API" },
  deleted: { en: "Deleted by API", fr: "Supprimé par l'API" },
} as const satisfies Record<string, Label>;

/** The comment of an API write's history line, in the writer's locale (English when it has none). */
export function apiHistoryComment(write: keyof typeof API_HISTORY, locale: string): string {
  return translate(API_HISTORY[write], locale);
}
