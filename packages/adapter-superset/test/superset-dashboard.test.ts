import { describe, expect, it } from "vitest";
import { naiveUtc, toServerDashboard } from "../src/index.ts";

// Superset's dashboard JSON to the port's view, without I/O.

describe("naiveUtc", () => {
  it.each([
    ["2021-05-05T13:15:31.442937", "2021-05-05T13:15:31.442937"],
    ["2021-05-05T13:15:31.442937+00:00", "2021-05-05T13:15:31.442937"],
    ["2021-05-05 13:15:31.4Z", "2021-05-05T13:15:31.400000"],
    ["2021-05-05T13:15:31", "2021-05-05T13:15:31.000000"],
    ["2021-05-05T13:15:31+00:00", "2021-05-05T13:15:31.000000"],
    ["2021-05-05T01:15:31.5+02:00", "2021-05-04T23:15:31.500000"],
    ["2021-05-05T23:15:31.250-0130", "2021-05-06T00:45:31.250000"],
  ])("%s gives %s", (stamp, expected) => {
    expect(naiveUtc(stamp)).toBe(expected);
  });

  it.each(["", "yesterday", "2021-05-05", "2021-05-05T13:15"])("refuses %j", (stamp) => {
    expect(naiveUtc(stamp)).toBeUndefined();
  });
});

describe("toServerDashboard", () => {
  const listed = {
    id: 7, dashboard_title: "Sales", published: true, changed_on_utc: "2024-03-04T05:06:07.123456+00:00",
    changed_by: { first_name: "Ada", last_name: "Lovelace" }, slug: "sales", url: "/superset/dashboard/sales/",
    uuid: "8F0C2A9E-1111-2222-3333-444455556666",
  };

  it("maps a list item: absolute url, lower-case uuids, name from changed_by", () => {
    expect(toServerDashboard(listed, "http://bi.example:8088", "5b1f0f4e-8c3a-4d7e-9a61-2f0c3b7d9e10")).toEqual({
      id: 7, uuids: ["8f0c2a9e-1111-2222-3333-444455556666", "5b1f0f4e-8c3a-4d7e-9a61-2f0c3b7d9e10"], title: "Sales", published: true,
      changedOn: "2024-03-04T05:06:07.123456", changedByName: "Ada Lovelace", slug: "sales", url: "http://bi.example:8088/superset/dashboard/sales/",
    });
  });

  it("reads older answers and fills what Superset leaves out", () => {
    expect(toServerDashboard({
      id: 3, dashboard_title: null, published: null, changed_on: "2024-03-04T05:06:07", changed_by_name: "admin", slug: null, url: null,
    }, "http://bi.example")).toEqual({
      id: 3, uuids: [], title: "", published: false, changedOn: "2024-03-04T05:06:07.000000", changedByName: "admin", slug: null,
      url: "http://bi.example/superset/dashboard/3/",
    });
    expect(toServerDashboard({ ...listed, changed_by: null }, "http://bi.example")?.changedByName).toBe("");
    expect(toServerDashboard({ ...listed, changed_by: { first_name: "Ada", last_name: null } }, "http://bi.example")?.changedByName).toBe("Ada");
  });

  it("gives nothing when the date of last change is unreadable", () => {
    expect(toServerDashboard({ ...listed, changed_on_utc: "soon" }, "http://bi.example")).toBeUndefined();
    expect(toServerDashboard({ ...listed, changed_on_utc: null }, "http://bi.example")).toBeUndefined();
  });
});
