import type { FieldDescription, LineageError } from "@lineage/core";

/*
 * A refusal of the use cases as the console says it: in the person's language, naming fields by the
 * label they read. The core's messages are the API's, in English, naming fields by id; their reasons
 * (`"abc" is not a number`) are a small fixed set, so they are the keys of this catalogue, as English
 * texts are the keys of the original's translations. A reason this catalogue does not know is said
 * in general words of the person's language rather than in English.
 */

/** What a field's id reads as, when the page knows it; undefined otherwise. */
export type LabelOf = (id: string) => string | undefined;

/** The labels of a structure description's fields (frames, tabs and arrays' columns too), by id. */
export function labelsOf(tree: Readonly<Record<string, FieldDescription>>): LabelOf {
  const labels = new Map<string, string>();
  const walk = (level: Readonly<Record<string, FieldDescription>>) => {
    for (const field of Object.values(level)) {
      labels.set(field.id, field.label);
      if (field.content) walk(field.content);
    }
  };
  walk(tree);
  return (id) => labels.get(id);
}

const quoted = (text: string) => `« ${text} »`;

/** The core's value reasons (field-value-codec, parse-filter), in French. */
const FRENCH_REASONS: readonly (readonly [RegExp, (...parts: string[]) => string])[] = [
  [/^"(.*)" is not an integer$/s, (value) => `${quoted(value)} n'est pas un nombre entier`],
  [/^"(.*)" is not a number$/s, (value) => `${quoted(value)} n'est pas un nombre`],
  [/^"(.*)" is not a date \(YYYY-MM-DD\)$/s, (value) => `${quoted(value)} n'est pas une date (AAAA-MM-JJ)`],
  [/^"(.*)" is not a timestamp \(.*\)$/s, (value) => `${quoted(value)} n'est pas une date et une heure`],
  [/^"(.*)" is not a time \(.*\)$/s, (value) => `${quoted(value)} n'est pas une heure (HH:MM)`],
  [/^"(.*)" is not a colour \(#rrggbb\)$/s, (value) => `${quoted(value)} n'est pas une couleur (#rrggbb)`],
  [/^"(.*)" is not a key of enumerate ".*"$/s, (value) => `${quoted(value)} n'est pas l'un des choix de ce champ`],
  [/^element "(.*)" not found$/s, (value) => `aucun élément ne s'appelle ${quoted(value)}`],
  [/^element "(.*)" is not of structure "(.*)"$/s, (value, structure) => `l'élément ${quoted(value)} n'est pas de la structure ${quoted(structure)}`],
  [/^account "(.*)" not found$/s, (value) => `aucun compte ${quoted(value)}`],
  [/^file "(.*)" not found in the vault$/s, (value) => `le fichier ${quoted(value)} est introuvable`],
  [/^file "(.*)" is not an image$/s, (value) => `le fichier ${quoted(value)} n'est pas une image`],
  [/^a text is expected, not (.*)$/s, (value) => `un texte est attendu, pas ${value}`],
  [/^a date or a timestamp is expected, not (.*)$/s, (value) => `une date est attendue, pas ${value}`],
  [/^"(.*)" takes no value$/s, () => "cette condition ne prend pas de valeur"],
  [/^"in" takes a list of at least one value$/s, () => "choisissez au moins une valeur"],
  [/^"in" takes at most (\d+) values$/s, (count) => `au plus ${count} valeurs`],
  [/^"(.*)" takes one value, not .*$/s, () => "cette condition prend une valeur"],
  [/^a quote is not closed$/s, () => "un guillemet n'est pas fermé"],
];

/** The core's own refusals of a transition (WFL0300 carries a hook's text as it is, or one of these), in French. */
const FRENCH_TRANSITION_REFUSALS: readonly (readonly [RegExp, (...parts: string[]) => string])[] = [
  [/^Transition "(.*)" is not granted to ".*"$/s, (label) => `La transition ${quoted(label)} ne vous est pas permise.`],
  [/^Document ".*" cannot be modified by ".*"$/s, () => "Vous ne pouvez pas modifier cet élément."],
  [/^Could not perform transition: Element "(.*)" is in edition by (.*)$/s, (title, holder) => `${quoted(title)} est en cours de modification par ${holder}.`],
  [/^Could not perform transition: .* it is locked by "(.*)"$/s, (holder) => `Cet élément est verrouillé par ${holder}.`],
  [/^Could not perform transition: Access not granted.*$/s, () => "Vous ne pouvez pas modifier cet élément."],
  [/^Hook ".*" \(.*\) of transition ".*" is not registered$/s, () => "Cette transition ne peut pas être faite : son contrôle n'est pas installé sur ce serveur."],
];

function frenchTransitionRefusal(text: string): string | undefined {
  for (const [pattern, say] of FRENCH_TRANSITION_REFUSALS) {
    const match = pattern.exec(text);
    if (match) return say(...match.slice(1));
  }
  return undefined;
}

function frenchReason(reason: string): string | undefined {
  for (const [pattern, say] of FRENCH_REASONS) {
    const match = pattern.exec(reason);
    if (match) return say(...match.slice(1));
  }
  return undefined;
}

/** The codes the console words itself, by language: each takes the error's arguments, field names read as labels. */
const FRENCH: Readonly<Record<string, (args: readonly string[], label: (id: string) => string) => string | undefined>> = {
  // A form says these beside the field, under its label.
  VALUE0001: ([, reason = ""]) => `${frenchReason(reason) ?? "cette valeur ne convient pas à ce champ"}.`,
  VALUE0002: () => "Ce champ est obligatoire.",
  ROUTES0107: ([, , reason = ""]) => `${frenchReason(reason) ?? "cette valeur ne convient pas à ce champ"}.`,
  FILTER0001: () => "Ce filtre n'est pas valable.",
  FILTER0002: ([field = ""], label) => `On ne peut pas filtrer cette liste sur ${quoted(label(field))}.`,
  FILTER0003: ([, field = ""], label) => `Cette condition ne s'applique pas à ${quoted(label(field))}.`,
  FILTER0004: ([field = "", reason = ""], label) => {
    const said = frenchReason(reason);
    return `La valeur de la condition sur ${quoted(label(field))} n'est pas valable${said ? ` : ${said}` : ""}.`;
  },
  FSEA0003: ([, reason = ""]) => `Cette recherche n'est pas valable${frenchReason(reason) ? ` : ${frenchReason(reason)}` : ""}.`,
  CRUD0229: ([transition = ""]) => `La transition ${quoted(transition)} n'existe pas pour cet élément.`,
  CRUD0228: ([state = ""]) => `L'état ${quoted(state)} n'existe pas pour cet élément.`,
  WFL0300: () => "Vous ne pouvez pas faire passer cet élément par cette transition.",
  // A transition's parameter: said beside it, under its label.
  WFL0310: ([, reason = ""]) => `${frenchReason(reason) ?? "cette valeur ne convient pas à ce paramètre"}.`,
  WFL0311: () => "Ce paramètre est obligatoire.",
  ROUTES0112: () => "Cet élément n'est pas dans la corbeille.",
  CRUD0237: () => "Cet élément n'est pas dans la corbeille.",
  CRUD0200: () => "Cet élément n'existe pas, ou vous ne pouvez pas le voir.",
  API0004: () => "Cette page n'existe pas.",
};

const ENGLISH: typeof FRENCH = {
  API0004: () => "There is no such page.",
};

/** Words for a refusal the catalogue does not know, by its status. */
const GENERAL = {
  en: { 400: "This request cannot be done as it is.", 403: "You may not do this.", 404: "There is no such page, or you may not view it.", 409: "This changed meanwhile: reload the page and try again." },
  fr: { 400: "Cette demande ne peut pas être faite telle quelle.", 403: "Vous ne pouvez pas faire cela.", 404: "Cette page n'existe pas, ou vous ne pouvez pas la voir.", 409: "Ceci a changé entretemps : rechargez la page et recommencez." },
} as const;

/**
 * The codes whose user message the core writes, in English; any other user message is the
 * console's own, already in the person's language.
 */
const CORE_USER_MESSAGES = new Set(["CRUD0201", "CRUD0219", "ROUTES0100", "ROUTES0101", "ROUTES0102", "ROUTES0105", "ROUTES0107", "ROUTES0112", "ROUTES0139"]);

/** A refusal in the person's language, its fields named by their label (`labelOf`), not their id. */
export function refusalText(error: LineageError, locale: string, labelOf: LabelOf = () => undefined): string {
  const french = locale.toLowerCase().startsWith("fr");
  if (french && error.code === "WFL0300" && error.userMessage) return frenchTransitionRefusal(error.userMessage) ?? error.userMessage;
  if (error.userMessage && !CORE_USER_MESSAGES.has(error.code)) return error.userMessage;
  const label = (id: string) => labelOf(id) ?? id;
  const args = error.args.map(String);
  const worded = (french ? FRENCH : ENGLISH)[error.code]?.(args, label);
  if (worded) return worded;
  if (french) {
    const general = GENERAL.fr[error.status as keyof typeof GENERAL.fr];
    return general ?? GENERAL.fr[400];
  }
  // English: the API's message, its field ids (the arguments that name one) read as labels.
  const message = error.userMessage ?? error.message;
  return args.reduce((text, arg) => (labelOf(arg) ? text.split(`"${arg}"`).join(`"${labelOf(arg)}"`) : text), message);
}
