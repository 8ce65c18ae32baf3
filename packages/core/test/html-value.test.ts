import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanHtml } from "../src/values/html-value.ts";

/* The clean-up of htmltext values, after the original's (HtmlClean: its XSS clean-up, then libxml's HTML serialization). */

describe("cleanHtml", () => {
  it("writes empty elements as HTML does: <br>, <img ...>, never <br />", () => {
    expect(cleanHtml("<p>Bears<br />live<br/>here<BR></p>")).toBe("<p>Bears<br>live<br>here<br></p>");
    expect(cleanHtml('<img src="a.png" style="float:right; height:176px" />')).toBe('<img src="a.png" style="float:right; height:176px">');
    expect(cleanHtml("<hr/><div/>x")).toBe("<hr><div></div>x");
  });

  it("keeps HTML already clean as it is", () => {
    const clean = '<p>Les <strong>ours</strong> forment la <a href="https://fr.wikipedia.org/wiki/Famille_(biologie)" title="Famille (biologie)">famille</a>.</p><ul>\t<li>un</li></ul>';
    expect(cleanHtml(clean)).toBe(clean);
    expect(cleanHtml('<p>Hello<br><img src="x.png" alt="x"></p>')).toBe('<p>Hello<br><img src="x.png" alt="x"></p>');
  });

  it("drops comments, script and applet tags, namespaced elements, on... and xmlns attributes, and disarms script links", () => {
    expect(cleanHtml("<p>a<!-- note\n -->b</p>")).toBe("<p>ab</p>");
    expect(cleanHtml("<p>x<script type='text/javascript'>alert(1)</script>y</p>")).toBe("<p>xalert(1)y</p>");
    expect(cleanHtml("<scr<script>ipt>alert(1)</scr</script>ipt>")).toBe("alert(1)");
    expect(cleanHtml('<p onclick="steal()" class="c" xmlns:o="urn:x">a<o:p></o:p></p>')).toBe('<p class="c">a</p>');
    expect(cleanHtml('<a href=" java\tscript:alert(1)">x</a><a href=\'VBScript:y\'>z</a>')).toBe('<a href="nojavascript...alert(1)">x</a><a href="novbscript...y">z</a>');
    expect(cleanHtml('<span style="width: expression(alert(1))" title="t">s</span>')).toBe('<span title="t">s</span>');
  });

  it("writes names in lower case and values between double quotes, and turns &#39; into '", () => {
    expect(cleanHtml("<P CLASS=intro Title='say \"hi\"'>it&#39;s</P>")).toBe('<p class="intro" title="say &quot;hi&quot;">it\'s</p>');
    expect(cleanHtml("<input type=checkbox checked>")).toBe('<input type="checkbox" checked>');
  });

  it("leaves text that is no tag as written", () => {
    expect(cleanHtml("a < b and c > d, <3, & [x]")).toBe("a < b and c > d, <3, & [x]");
  });

  it("changes nothing more when applied again", () => {
    const pieces = fc.constantFrom("<p>", "</p>", "<br />", "<BR/>", "<img src='a' />", "<!-- c -->", "<script>", "<a onclick=x href=\"javascript:y\">", "</a>", "text", " ", "&#39;", "<o:p/>", "<div/>", "<", ">", "\"", "'", "<scr", "ipt>", "&#3", "9;", "<!-", "- x -->");
    fc.assert(fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
      const once = cleanHtml(parts.join(""));
      expect(cleanHtml(once)).toBe(once);
    }));
  });
});
