import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { html } from "hono/html";
import * as v from "valibot";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";

/*
 * The message a change leaves for the page it goes to (post, redirect, get): kept in a cookie of
 * the console's path for that one page, then removed. It says what was done, in the person's
 * language, and may offer to undo a deletion (a restore button).
 */

/** What the next page says. */
export interface Flash {
  readonly message: string;
  /** Some of the change was refused: said as an alert. */
  readonly refused?: boolean | undefined;
  /** An element put in the trash: the message offers to restore it. */
  readonly undo?: number | undefined;
}

const COOKIE = "lineage_console_flash";
/** A flash is small: a longer cookie (forged or not) is ignored. */
const MAX_LENGTH = 3000;

const FlashSchema = v.object({
  message: v.pipe(v.string(), v.maxLength(2000)),
  refused: v.optional(v.boolean()),
  undo: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

/** Leaves a message for the next console page. */
export function setFlash(c: Context, flash: Flash): void {
  setCookie(c, COOKIE, encodeURIComponent(JSON.stringify(flash)), { path: "/console", httpOnly: true, sameSite: "Lax", secure: new URL(c.req.url).protocol === "https:" });
}

/** Takes the message left for this page, if any (it is shown once). */
export function takeFlash(c: Context): Flash | undefined {
  const raw = getCookie(c, COOKIE);
  if (raw === undefined) return undefined;
  deleteCookie(c, COOKIE, { path: "/console" });
  if (raw.length > MAX_LENGTH) return undefined;
  try {
    const parsed = v.safeParse(FlashSchema, JSON.parse(decodeURIComponent(raw)));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** The message at the top of the page: a status (or an alert when something was refused), with its undo button. */
export function flashMessage(flash: Flash | undefined, csrf: string | undefined, t: ConsoleText): Fragment | string {
  if (!flash) return "";
  const undo = flash.undo !== undefined && csrf
    ? html` <form method="post" action="/console/trash/${flash.undo}/restore" class="inline"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">${t.undo}</button></form>`
    : "";
  return flash.refused
    ? html`<div role="alert" class="alert flash">${flash.message}${undo}</div>`
    : html`<div role="status" class="notice flash">${flash.message}${undo}</div>`;
}
