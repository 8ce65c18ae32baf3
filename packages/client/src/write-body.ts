/** The body of a create or an update: JSON in the API's shape, or multipart when a value is a Blob. */
export type WriteBody = { readonly json: unknown; readonly form?: undefined } | { readonly json?: undefined; readonly form: FormData };

/**
 * Flat values (`{ ar_title: "Bonjour" }`) as the API takes them: `{"document":{"attributes":
 * {"ar_title":{"value":"Bonjour"}}}}`, a list of `{value}` for a multiple field or an array
 * column, a list of lists for a multiple column. With a Blob among them (an upload), a multipart
 * form instead: one variable per field, `field[]` repeated for a list.
 */
export function writeBody(values: object): WriteBody {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined);
  if (entries.some(([, value]) => holdsBlob(value))) return { form: formOf(entries) };
  const attributes: Record<string, unknown> = {};
  for (const [id, value] of entries) attributes[id] = attributeOf(value);
  return { json: { document: { attributes } } };
}

function attributeOf(value: unknown): unknown {
  return Array.isArray(value) ? value.map(attributeOf) : { value };
}

function holdsBlob(value: unknown): boolean {
  return value instanceof Blob || (Array.isArray(value) && value.some(holdsBlob));
}

function formOf(entries: readonly (readonly [string, unknown])[]): FormData {
  const form = new FormData();
  const add = (name: string, value: unknown) => {
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else if (value === null) form.append(name, "");
    else if (Array.isArray(value)) throw new TypeError(`Field "${name}": a list of lists cannot be sent with an upload; write it in an update of its own`);
    else form.append(name, String(value as string | number | boolean));
  };
  for (const [id, value] of entries) {
    if (Array.isArray(value)) for (const item of value) add(`${id}[]`, item);
    else add(id, value);
  }
  return form;
}
