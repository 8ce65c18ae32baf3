import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO, ROOT, basic, spawnServe, type ServeProcess } from "./serve-process.ts";

/*
 * Crash safety of the real `lineage serve`: clients stream PUTs and lifecycle transitions, the
 * process is SIGKILLed in the middle, then restarted on the same data directory. Every change
 * answered 200 must be there, nothing half-written, and the server must start cleanly.
 */

const Database = createRequire(join(ROOT, "packages/adapter-sqlite/package.json"))("better-sqlite3");
const dirs: string[] = [];
const running: ServeProcess[] = [];
afterAll(() => {
  for (const serve of running) if (serve.child.exitCode === null) serve.child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ADMIN = { authorization: basic("admin", "admin"), "content-type": "application/json" };
const ALICE = { authorization: basic("alice", "alice"), "content-type": "application/json" };
const TITLED = ["ART_HELLO", "ART_AI_NEWSROOMS", "ART_SPIRAL_GALAXIES", "AUTHOR_JANE", "AUTHOR_PIERRE", "CONTACT_FESTIVAL"];
const CYCLED = ["ART_IA_REDACTIONS", "ART_CLIMATE_2024", "ART_FILM_FESTIVAL", "ART_GALAXIES_SPIRALES"];
const TITLE_FIELD: Record<string, string> = { ART: "ar_title", AUTHOR: "au_name", CONTACT: "ct_name" };
const titleField = (name: string) => TITLE_FIELD[name.split("_")[0] ?? ""] ?? "ar_title";

/** What one element's client saw: the last value answered 200, and the one in flight when the server died. */
interface Track {
  acked: string | undefined;
  inFlight: string | undefined;
  acks: number;
}

async function get(url: string, path: string) {
  const response = await fetch(`${url}${path}`, { headers: ADMIN });
  return { status: response.status, json: (await response.json()) as any };
}

/** PUTs new titles to one element, one after the other, until the server goes away. */
async function putTitles(url: string, name: string, track: Track, stop: { dead: boolean }) {
  const field = titleField(name);
  for (let n = 1; !stop.dead; n++) {
    const value = `${name} crash-test ${n}`;
    track.inFlight = value;
    try {
      const response = await fetch(`${url}/api/v2/smart-elements/${name}`, {
        method: "PUT", headers: ADMIN, body: JSON.stringify({ document: { attributes: { [field]: { value } } } }),
      });
      if (response.status !== 200) throw new Error(`PUT ${name}: ${response.status} ${await response.text()}`);
      await response.text();
      track.acked = value;
      track.acks++;
      track.inFlight = undefined;
    } catch (error) {
      if (!stop.dead) throw error;
    }
  }
}

/** Moves one article between draft and review (submit, reject) until the server goes away. */
async function cycleStates(url: string, name: string, track: Track, stop: { dead: boolean }) {
  const start = await get(url, `/api/v2/smart-elements/${name}?fields=document.properties.state`);
  let state: string = start.json.data.document.properties.state.reference;
  if (state === "published") {
    const back = await fetch(`${url}/api/v2/smart-elements/${name}/workflows/transitions/unpublish`, { method: "POST", headers: ALICE, body: "{}" });
    expect(back.status).toBe(200);
    state = "draft";
  }
  for (let n = 1; !stop.dead; n++) {
    const transition = state === "draft" ? "submit" : "reject";
    const target = state === "draft" ? "review" : "draft";
    track.inFlight = target;
    try {
      const response = await fetch(`${url}/api/v2/smart-elements/${name}/workflows/transitions/${transition}`, {
        method: "POST", headers: ALICE, body: JSON.stringify({ comment: `crash test ${n}` }),
      });
      const body = (await response.json()) as any;
      if (response.status !== 200) throw new Error(`${transition} ${name}: ${response.status} ${JSON.stringify(body)}`);
      expect(body.data.state.id).toBe(target);
      state = target;
      track.acked = target;
      track.acks++;
      track.inFlight = undefined;
    } catch (error) {
      if (!stop.dead) throw error;
    }
  }
}

describe("lineage serve, killed in the middle of a stream of changes", () => {
  it("keeps every change it answered 200, nothing half-written, and starts again cleanly", async () => {
    const data = mkdtempSync(join(tmpdir(), "lineage-crash-"));
    dirs.push(data);
    const first = await spawnServe(["--data", data, "--bundle", DEMO, "--log-level", "silent"]);
    running.push(first);
    const tracks = new Map<string, Track>([...TITLED, ...CYCLED].map((name) => [name, { acked: undefined, inFlight: undefined, acks: 0 }]));
    const stop = { dead: false };
    const failures: unknown[] = [];
    const clients = [
      ...TITLED.map((name) => putTitles(first.url, name, tracks.get(name)!, stop)),
      ...CYCLED.map((name) => cycleStates(first.url, name, tracks.get(name)!, stop)),
    ].map((client) => client.catch((error: unknown) => failures.push(error)));
    // Enough changes on every element first, then a random moment: the kill lands anywhere in a request.
    const deadline = Date.now() + 60_000;
    while ([...tracks.values()].some((track) => track.acks < 5) && failures.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 500));
    stop.dead = true;
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    await Promise.all(clients);
    expect(failures).toEqual([]);
    const acked = [...tracks.values()].reduce((sum, track) => sum + track.acks, 0);
    expect(acked).toBeGreaterThan(50);

    // The file itself: intact, no dangling reference.
    const db = new Database(join(data, "lineage.sqlite"));
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(db.pragma("foreign_key_check")).toEqual([]);
    db.close();

    const second = await spawnServe(["--data", data, "--log-level", "silent"]);
    running.push(second);
    for (const name of TITLED) {
      const track = tracks.get(name)!;
      const read = await get(second.url, `/api/v2/smart-elements/${name}`);
      const value = read.json.data.document.attributes[titleField(name)].value;
      // The last value answered 200, or the one sent after it whose answer the kill swallowed.
      expect([track.acked, track.inFlight].filter(Boolean), name).toContain(value);
    }
    for (const name of CYCLED) {
      const track = tracks.get(name)!;
      const read = await get(second.url, `/api/v2/smart-elements/${name}?fields=document.properties.state`);
      expect([track.acked, track.inFlight].filter(Boolean), name).toContain(read.json.data.document.properties.state.reference);
      // Every revision is whole (its values are there), and the history points only at revisions that exist.
      const revisions = await get(second.url, `/api/v2/smart-elements/${name}/revisions/?slice=all&fields=document.properties.revision`);
      const numbers: number[] = revisions.json.data.revisions.map((r: any) => r.properties.revision);
      expect(numbers.length, name).toBeGreaterThan(track.acks);
      for (const n of [numbers[0], numbers[numbers.length - 1]]) {
        const one = await get(second.url, `/api/v2/smart-elements/${name}/revisions/${n}`);
        expect(one.status).toBe(200);
        expect(one.json.data.revision.attributes.ar_title.value, `${name} revision ${n}`).toBeTruthy();
      }
      const history = await get(second.url, `/api/v2/smart-elements/${name}/history/`);
      expect(history.status).toBe(200);
      for (const entry of history.json.data.history) expect(numbers).toContain(entry.properties.revision);
    }
    // The restarted server takes changes again.
    const put = await fetch(`${second.url}/api/v2/smart-elements/ART_HELLO`, {
      method: "PUT", headers: ADMIN, body: JSON.stringify({ document: { attributes: { ar_title: { value: "After the crash" } } } }),
    });
    expect(put.status).toBe(200);
    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});
