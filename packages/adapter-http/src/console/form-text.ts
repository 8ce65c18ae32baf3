/* The words of the console's form controls (relation picker, HTML editor, enumerate trees), in the languages the console speaks. */

const EN = {
  pickerHint: "Type a name: the suggestions follow, or the form finds it when saved.",
  suggestions: (label: string) => `Suggestions for ${label}`,
  noSuggestion: "No match",
  noneNamed: (text: string) => `Nothing you may view is named "${text}".`,
  noneNamedButClose: (text: string) => `Nothing is named exactly "${text}": choose one below.`,
  severalNamed: (text: string) => `Several are named "${text}": choose one below.`,
  chooseOne: (label: string) => `${label}: choose one`,
  searchAgain: (label: string) => `${label}: or type another name`,
  accountName: (name: string, login: string) => (name && name !== login ? `${name} (${login})` : login),
  htmlHint: "HTML: paragraphs, emphasis, lists, links and tables are kept; anything else (scripts, styles, frames) is removed when saved.",
  htmlToolbar: (label: string) => `Formatting of ${label}`,
  bold: "Bold",
  italic: "Italic",
  bulletList: "Bulleted list",
  numberedList: "Numbered list",
  link: "Link",
  linkAddress: "Address of the link",
  heading: "Heading",
  paragraph: "Paragraph",
  removeFormat: "Clear formatting",
};

export type FormText = typeof EN;

const FR: FormText = {
  pickerHint: "Tapez un nom : les suggestions suivent, ou le formulaire le trouve à l'enregistrement.",
  suggestions: (label) => `Suggestions pour ${label}`,
  noSuggestion: "Aucun résultat",
  noneNamed: (text) => `Rien de ce que vous pouvez voir ne s'appelle « ${text} ».`,
  noneNamedButClose: (text) => `Rien ne s'appelle exactement « ${text} » : choisissez ci-dessous.`,
  severalNamed: (text) => `Plusieurs s'appellent « ${text} » : choisissez ci-dessous.`,
  chooseOne: (label) => `${label} : choisissez`,
  searchAgain: (label) => `${label} : ou tapez un autre nom`,
  accountName: (name, login) => (name && name !== login ? `${name} (${login})` : login),
  htmlHint: "HTML : paragraphes, emphase, listes, liens et tableaux sont gardés ; le reste (scripts, styles, cadres) est retiré à l'enregistrement.",
  htmlToolbar: (label) => `Mise en forme de ${label}`,
  bold: "Gras",
  italic: "Italique",
  bulletList: "Liste à puces",
  numberedList: "Liste numérotée",
  link: "Lien",
  linkAddress: "Adresse du lien",
  heading: "Titre",
  paragraph: "Paragraphe",
  removeFormat: "Effacer la mise en forme",
};

/** The form controls' words in a locale (`fr`, `fr-FR`... or English). */
export function formText(locale: string): FormText {
  return locale.toLowerCase().startsWith("fr") ? FR : EN;
}
