import { describe, expect, it } from "vitest";
import { LineageError } from "@lineage/core";
import { refusalText } from "../src/console/refusal-text.ts";

const labels = (id: string) => ({ pub_date: "Date de publication", ar_words: "Mots" })[id];

describe("a refusal as the console says it", () => {
  it("says a transition's parameter refused at its input in French, by its label when in English", () => {
    const refused = new LineageError("WFL0310", ["ar_words", '"abc" is not a number']);
    expect(refusalText(refused, "fr", labels)).toBe("« abc » n'est pas un nombre.");
    expect(refusalText(new LineageError("WFL0311", ["pub_date"]), "fr", labels)).toBe("Ce paramètre est obligatoire.");
    expect(refusalText(new LineageError("WFL0311", ["pub_date"]), "en", labels)).toBe('Transition parameter "Date de publication" is needed');
  });

  it("says the core's own refusals of a transition in French, and a hook's message as its author wrote it", () => {
    const refuse = (text: string) => new LineageError("WFL0300", [text], { userMessage: text });
    expect(refusalText(refuse('Transition "Publier" is not granted to "bob"'), "fr")).toBe("La transition « Publier » ne vous est pas permise.");
    expect(refusalText(refuse('Document "ART_1" cannot be modified by "bob"'), "fr")).toBe("Vous ne pouvez pas modifier cet élément.");
    expect(refusalText(refuse('Could not perform transition: Element "Hello" is in edition by Alice Martin'), "fr"))
      .toBe("« Hello » est en cours de modification par Alice Martin.");
    expect(refusalText(refuse('Could not perform transition: You are not allowed to update the element "Hello" (# 12): it is locked by "Alice"'), "fr"))
      .toBe("Cet élément est verrouillé par Alice.");
    expect(refusalText(refuse("Il manque la relecture"), "fr")).toBe("Il manque la relecture");
    expect(refusalText(refuse('Transition "Publish" is not granted to "bob"'), "en")).toBe('Transition "Publish" is not granted to "bob"');
  });

  it("says a refusal it has no words for in general words of the person's language, never in English", () => {
    expect(refusalText(new LineageError("CRUD0201", ["12", "Access not granted"], { userMessage: "Update forbidden" }), "fr")).toBe("Vous ne pouvez pas faire cela.");
  });
});
