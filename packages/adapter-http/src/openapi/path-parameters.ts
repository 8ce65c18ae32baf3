import * as v from "valibot";

// Path parameters shared by several route modules.

/** `<docid>`: initid, revision id or logical name; `.json` (or `.xml` where served) may follow. */
export const DocidParamSchema = v.pipe(
  v.string(),
  v.description("Smart Element: initid, id of any revision, or logical name; a .json suffix may follow. Whatever the identifier, the latest revision is served."),
  v.examples(["ART_HELLO", "1042", "ART_HELLO.json"]),
);

/** `<family>`: a Smart Structure name. */
export const FamilyParamSchema = v.pipe(v.string(), v.description("Smart Structure name; the element must belong to it"), v.examples(["ARTICLE"]));

/** The path parameters of the routes under /smart-elements/:docid and /smart-structures/:family/smart-elements/:docid. */
export const ELEMENT_PARAMS = { docid: DocidParamSchema, family: FamilyParamSchema };
