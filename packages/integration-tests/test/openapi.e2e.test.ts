import { Validator } from "@seriousme/openapi-schema-validator";
import { errorCodeDefinition, type ErrorCode } from "@lineage/core";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { describedOperations, openApiPath, successEnvelopeSchema, type ApiOperation } from "@lineage/adapter-http/openapi";
import { appWithEveryRoute } from "../src/full-app.ts";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

let live: LiveServer<Awaited<ReturnType<typeof seededPlatform>>>;
let document: any;
let operations: ApiOperation[];

beforeAll(async () => {
  live = await startLiveServer(seededPlatform);
  document = (await live.api.call("GET", "/api/v2/openapi.json")).json;
  operations = await describedOperations(await appWithEveryRoute());
});
afterAll(() => live.close());

const operation = (method: string, path: string) => {
  const found = operations.find((candidate) => candidate.method === method && candidate.path === openApiPath(path).path);
  if (!found) throw new Error(`no description of ${method} ${path}`);
  return found;
};

/** Checks a real answer against the envelope and data schema its description promises. */
async function answerMatches(method: string, path: string, url: string) {
  const response = await live.api.call(method, url);
  expect(response.status).toBe(200);
  const schema = successEnvelopeSchema(operation(method, path).response?.data ?? v.unknown());
  const parsed = v.safeParse(schema, response.json);
  expect(parsed.issues?.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`) ?? []).toEqual([]);
}

describe("GET /api/v2/openapi.json", () => {
  it("needs the same authentication as the rest of /api/", async () => {
    for (const path of ["/api/v2/openapi.json", "/api/v2/docs", "/api/v2/docs/assets/swagger-ui-bundle.js"]) {
      const response = await live.api.call("GET", path, { as: null });
      expect([response.status, response.json?.messages[0].code, response.headers.get("www-authenticate")?.slice(0, 5)]).toEqual([401, "AUTH0401", "Basic"]);
    }
  });

  it("serves the page and its assets from the server, with an ETag for the big ones", async () => {
    const page = await live.api.call("GET", "/api/v2/docs", { headers: { accept: "text/html,*/*;q=0.8" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const scripts = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    expect(scripts).toEqual(["/api/v2/docs/assets/favicon-32x32.png", "/api/v2/docs/assets/swagger-ui.css", "/api/v2/docs/assets/swagger-ui-bundle.js", "/api/v2/docs/assets/reference-init.js"]);
    for (const asset of scripts) expect((await live.api.call("GET", asset)).status, asset).toBe(200);
    const bundle = await live.api.call("GET", "/api/v2/docs/assets/swagger-ui-bundle.js");
    const again = await live.api.call("GET", "/api/v2/docs/assets/swagger-ui-bundle.js", { headers: { "if-none-match": bundle.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
    const unknown = await live.api.call("GET", "/api/v2/docs/assets/..%2Fpackage.json");
    expect([unknown.status, unknown.json.messages[0].code]).toEqual([404, "API0004"]);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes the Smart Element routes with their parameters, body and errors", () => {
    const list = document.paths["/api/v2/smart-elements"].get;
    expect(list.parameters.map((p: any) => p.name ?? p.$ref)).toEqual(["fields", "slice", "offset", "orderBy", "filter", "count", "#/components/parameters/alt"]);
    expect(list.parameters.find((p: any) => p.name === "slice").schema.pattern).toBeDefined();
    // The filter is JSON in a query variable: the document gives the schema of that JSON, groups nesting by reference.
    expect(list.parameters.find((p: any) => p.name === "filter").content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Filter" });
    const filter = document.components.schemas.Filter;
    expect(JSON.stringify(filter)).toContain('"#/components/schemas/Filter"');
    expect(JSON.stringify(filter)).toContain('"doesnotcontain"');
    expect(Object.keys(list.responses["400"].content["application/json"].examples)).toEqual(expect.arrayContaining(["FILTER0001", "FILTER0002", "FILTER0003", "FILTER0004"]));
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403"]));
    expect(Object.keys(list.responses["400"].content["application/json"].examples)).toContain("ROUTES0139");

    const put = document.paths["/api/v2/smart-elements/{docid}"].put;
    expect(Object.keys(put.requestBody.content)).toEqual(["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]);
    expect(put.requestBody.content["application/json"].schema.properties.document.required).toEqual(["attributes"]);
    expect(put.responses["403"].content["application/json"].examples.CRUD0201.value).toMatchObject({ success: false, data: null });
    expect(put.responses["500"].description).toMatch(/ROUTES0109/);
    expect(document.paths["/api/v2/smart-elements/{docid}"].get.parameters[0]).toMatchObject({ name: "docid", in: "path", required: true });
  });

  it("gives every error code the status of the error-code table", () => {
    let checked = 0;
    for (const item of Object.values<any>(document.paths)) {
      for (const op of Object.values<any>(item)) {
        for (const [status, response] of Object.entries<any>(op.responses)) {
          for (const code of Object.keys(response.content?.["application/json"]?.examples ?? {})) {
            expect(String(errorCodeDefinition(code as ErrorCode).status), code).toBe(status);
            expect(response.description).toContain(code);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("takes the enumerate query from the schema the route parses with", async () => {
    const operator = document.paths["/api/v2/enumerates/{enum}"].get.parameters.find((p: any) => p.name === "operator");
    expect(operator.schema).toMatchObject({ enum: ["startswith", "contains"], default: "contains" });
    const refused = await live.api.call("GET", "/api/v2/enumerates/CATEGORIES/?operator=endswith");
    expect([refused.status, refused.json.messages[0].code]).toEqual([400, "CRUD0402"]);
  });

  it("promises data shapes that real answers have", async () => {
    await answerMatches("GET", "/api/v2/smart-elements", "/api/v2/smart-elements/?fields=document.properties.all,document.attributes.ar_title");
    await answerMatches("GET", "/api/v2/smart-elements/:docid", "/api/v2/smart-elements/ART_HELLO");
    await answerMatches("GET", "/api/v2/smart-elements/:docid/revisions", "/api/v2/smart-elements/ART_HELLO/revisions/");
    await answerMatches("GET", "/api/v2/smart-elements/:docid/workflows/states", "/api/v2/smart-elements/ART_HELLO/workflows/states/?allStates=1");
    await answerMatches("GET", "/api/v2/smart-elements/:docid/workflows/transitions/:transition", "/api/v2/smart-elements/ART_HELLO/workflows/transitions/publish");
    await answerMatches("GET", "/api/v2/enumerates/:enum", "/api/v2/enumerates/CATEGORIES/");
  });
});
