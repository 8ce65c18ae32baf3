/*
 * The clean-up of an htmltext value when it is written, after the original's (its HtmlClean: the
 * XSS clean-up, then a parse and an HTML serialization by libxml): what it changes in the HTML
 * people write. Comments go; `&#39;` becomes `'`; the `script` and `applet` tags go (their text
 * stays, as the original leaves it) as do namespaced elements (`<o:p>`); attributes `on...` and
 * `xmlns...` go, a `javascript:` or `vbscript:` link is disarmed (`nojavascript...`), a style
 * holding `expression(`, `behaviour(` or `script:` goes; tag and attribute names are written in
 * lower case, attribute values between double quotes; an empty element is written as HTML writes
 * it: `<br>`, `<img src="x.png">` (never `<br />`), `<div></div>` for `<div/>`. Text is kept as
 * written. Applied twice, it changes nothing more.
 */

/** Elements that have no content, written `<br>` by an HTML serializer. */
const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr"]);

/** A start or end tag: its slash, name, attributes and closing slash. */
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9:_-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/g;
/** One attribute of a tag: its name and its value, double-quoted, single-quoted or bare. */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

// eslint-disable-next-line no-control-regex -- the original ignores the control characters and spaces written inside a protocol.
const IGNORED_IN_PROTOCOL = /[\u0000-\u0020]/g;

/** An attribute value with its `javascript:` or `vbscript:` protocol disarmed, as the original does. */
function disarmed(value: string): string {
  const squeezed = value.replace(IGNORED_IN_PROTOCOL, "");
  const protocol = /^(javascript|vbscript):/i.exec(squeezed);
  return protocol ? `no${protocol[1]!.toLowerCase()}...${squeezed.slice(protocol[0].length)}` : value;
}

const escapeAttribute = (value: string) => value.replace(/"/g, "&quot;");

function cleanAttributes(source: string): string {
  let attributes = "";
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (name.startsWith("on") || name.startsWith("xmlns")) continue;
    const value = match[2] ?? match[3] ?? match[4];
    if (value === undefined) {
      attributes += ` ${name}`;
      continue;
    }
    if (name === "style" && /expression\s*\(|behaviour\s*\(|s\s*c\s*r\s*i\s*p\s*t\s*:/i.test(value)) continue;
    attributes += ` ${name}="${escapeAttribute(disarmed(value))}"`;
  }
  return attributes;
}

/** An htmltext value cleaned up as the original cleans it when it is written (see above). */
export function cleanHtml(html: string): string {
  // Until nothing changes, as the original removes script tags: `<scr<script>ipt>` must not leave a `<script>`.
  // Each pass only removes or settles what it writes: a few passes settle any text (bounded all the same).
  let cleaned = cleanOnce(html);
  for (let pass = 0, previous = html; cleaned !== previous && pass < 16; pass++) {
    previous = cleaned;
    cleaned = cleanOnce(previous);
  }
  return cleaned;
}

function cleanOnce(html: string): string {
  return html
    .replaceAll("&#39;", "'")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(TAG, (_tag, end: string, rawName: string, attributes: string, selfClosing: string) => {
      const name = rawName.toLowerCase();
      if (name === "script" || name === "applet" || name.includes(":")) return "";
      if (end) return VOID_ELEMENTS.has(name) ? "" : `</${name}>`;
      const start = `<${name}${cleanAttributes(attributes)}>`;
      return selfClosing && !VOID_ELEMENTS.has(name) ? `${start}</${name}>` : start;
    });
}
