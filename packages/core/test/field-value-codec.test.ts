import { describe, expect, it } from "vitest";
import { encodeColumnValue, encodeFieldValue, type ValueContext } from "./internals.ts";

const context: ValueContext = {
  enumerate: (name) => (name === "E" ? { name, items: [{ key: "a", label: "A" }, { key: "b", label: "B" }] } : undefined),
  element: (ref) => (ref === 7 || ref === "SEVEN"
    ? { id: 9, initid: 7, revision: 1, structure: "S", name: "SEVEN", title: "Seven", owner: 1, status: "alive", fixed: false, state: null, values: {}, createdAt: "", modifiedAt: "", importKey: null, ownProfile: null, profile: null }
    : undefined),
  accountByLogin: (login) => (login === "jdoe"
    ? { id: 5, login, displayName: "Jane Doe", passwordHash: null, roles: [], groups: [], locale: "en", rights: [], disabled: false }
    : undefined),
  vaultFile: (id) => (id === 3 ? { id, sha256: "x", name: "a.png", mime: "image/png", size: 10, createdAt: "" } : id === 4 ? { id, sha256: "y", name: "a.txt", mime: "text/plain", size: 1, createdAt: "" } : undefined),
};

describe("encodeFieldValue", () => {
  it.each([
    ["text", 12, "12"], ["text", "", null], ["int", "42", 42], ["int", -3, -3], ["double", "2.5", 2.5], ["double", 1e3, 1000],
    ["date", "2024-02-29", "2024-02-29"], ["timestamp", "2024-01-02 03:04", "2024-01-02T03:04:00"],
    ["timestamp", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05"], ["timestamp", "2024-01-02T03:04:05+0100", "2024-01-02T02:04:05"],
    ["money", "1234.5", 1234.5], ["money", -3, -3], ["time", "09:30", "09:30:00"], ["time", " 23:59:59 ", "23:59:59"],
    ["color", "#A0b1C2", "#A0b1C2"], ["color", " #34ED0F ", "#34ED0F"], ["account", "jdoe", "jdoe"], ["account", " jdoe ", "jdoe"],
    ["password", { kind: "password-hash", hash: "scrypt$x" }, "scrypt$x"], ["password", "", null],
    ["enum", "a", "a"], ["docid", "SEVEN", 7], ["docid", "7", 7], ["image", 3, "image/png|3|a.png"], ["file", "text/plain|4|a.txt", "text/plain|4|a.txt"],
  ] as const)("%s accepts %j", (type, raw, stored) => {
    expect(encodeFieldValue({ id: "f", type, enum: "E" }, raw, context)).toEqual(stored);
  });

  it.each([
    ["int", "1.5"], ["int", "9007199254740993"], ["int", true], ["double", "NaN"], ["double", "1,5"], ["date", "2023-02-29"],
    ["date", "2024-13-01"], ["timestamp", "2024-01-02T25:00"], ["enum", "z"], ["docid", "NOPE"], ["image", 4], ["file", 99], ["text", { a: 1 }],
    ["money", "1 234"], ["time", "24:00"], ["time", "9:30"], ["time", "09:60"], ["color", "red"], ["color", "#abc"],
    ["account", "nobody"], ["password", 42], ["password", { kind: "other", hash: "x" }],
    ["text", ["a"]], ["text", "a\u0000b"], ["longtext", "\uD800 alone"], ["htmltext", "<p>\uDC00</p>"],
  ] as const)("%s refuses %j, naming the field", (type, raw) => {
    expect(() => encodeFieldValue({ id: "my_field", type, enum: "E" }, raw, context)).toThrow(/Smart field "my_field"/);
  });

  it("takes lists for multiple fields and rows for columns", () => {
    expect(encodeFieldValue({ id: "m", type: "int", multiple: true }, ["1", 2], context)).toEqual([1, 2]);
    expect(encodeFieldValue({ id: "m", type: "int", multiple: true }, "", context)).toEqual([]);
    expect(encodeFieldValue({ id: "m", type: "int", multiple: true }, 5, context)).toEqual([5]);
    expect(encodeColumnValue({ id: "c", type: "text" }, ["a", "", "b"], context)).toEqual(["a", null, "b"]);
    expect(() => encodeColumnValue({ id: "c", type: "text" }, "a", context)).toThrow(/one value per row/);
  });
});
