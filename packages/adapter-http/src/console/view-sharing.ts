import { COLLECTIONS_PROFILE, type Definitions, type Profile } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";

/*
 * Who sees a saved view. A REPORT is under the system structures' profile (its owner only) unless
 * it has a profile of its own, as any element may: sharing a view gives it one of the profiles the
 * definitions hold (a bundle's) that lets others view it and keeps changing and deleting it to its
 * owner. Without such a profile, views stay private.
 */

/** A profile a view may be shared under: who it lets view the view, in words. */
export interface ViewShare {
  readonly profile: string;
  readonly viewers: string;
}

const EN = {
  whoSees: "Who sees it",
  onlyMe: "Only me",
  sharedWith: (viewers: string) => `Shared with ${viewers}`,
  noShare: "Only you see your views: sharing one needs a profile for shared views in a bundle (viewers, and changes by the owner).",
  entry: (kind: string, id: string) => ({ role: `the role ${id}`, group: `the group ${id}`, user: id, right: `everyone with the ${id} right` } as Record<string, string>)[kind] ?? id,
  and: " and ",
  shared: "shared",
  badShare: "This view cannot be shared that way: choose who sees it again.",
  colon: ": ",
  whoSeesView: (title: string) => `Who sees the view "${title}"`,
  change: "Change who sees it",
  nowPrivate: (title: string) => `Only you see the view "${title}" now.`,
  nowShared: (title: string, viewers: string) => `The view "${title}" is shared with ${viewers} now.`,
  notOwner: "Only the owner of a view changes who sees it.",
};
const FR: typeof EN = {
  whoSees: "Qui la voit",
  onlyMe: "Moi seul",
  sharedWith: (viewers) => `Partagée avec ${viewers}`,
  noShare: "Vous seul voyez vos vues : en partager une demande un profil de vues partagées dans un bundle (des lecteurs, et les changements par le propriétaire).",
  entry: (kind, id) => ({ role: `le rôle ${id}`, group: `le groupe ${id}`, user: id, right: `quiconque a le droit ${id}` } as Record<string, string>)[kind] ?? id,
  and: " et ",
  shared: "partagée",
  badShare: "Cette vue ne peut pas être partagée ainsi : choisissez à nouveau qui la voit.",
  colon: " : ",
  whoSeesView: (title) => `Qui voit la vue « ${title} »`,
  change: "Changer qui la voit",
  nowPrivate: (title) => `Vous seul voyez la vue « ${title} » désormais.`,
  nowShared: (title, viewers) => `La vue « ${title} » est partagée avec ${viewers} désormais.`,
  notOwner: "Seul le propriétaire d'une vue change qui la voit.",
};

/** The sharing words in a locale. */
export const shareText = (locale: string) => (locale.toLowerCase().startsWith("fr") ? FR : EN);

/** Whether a profile suits a shared view: others may view it, its owner (only through `owner`) changes and deletes it. */
function shareable(profile: Profile): boolean {
  const viewers = (profile.grants.view ?? []).filter((entry) => entry !== "owner");
  return profile.name !== COLLECTIONS_PROFILE.name && viewers.length > 0
    && (profile.grants.edit ?? []).includes("owner") && (profile.grants.delete ?? []).includes("owner");
}

/** The profiles a view may be shared under, by name, with who they let view it. */
export function viewShares(definitions: Pick<Definitions, "profiles">, locale: string): ViewShare[] {
  const text = shareText(locale);
  return definitions.profiles().filter(shareable).map((profile) => ({
    profile: profile.name,
    viewers: (profile.grants.view ?? []).filter((entry) => entry !== "owner").map((entry) => {
      const [kind = "", ...rest] = entry.split(":");
      return text.entry(kind, rest.join(":"));
    }).join(text.and),
  })).sort((a, b) => a.profile.localeCompare(b.profile));
}

/** The choice of who sees a view: only its owner, or one of the shares; `current`, the profile it is under now (none: only its owner). */
export function shareChoice(shares: readonly ViewShare[], locale: string, current: string | null = null, legend?: string): Fragment {
  const text = shareText(locale);
  if (shares.length === 0) return html`<p class="hint">${text.noShare}</p>`;
  const checked = (profile: string | null) => (profile === current ? html` checked` : "");
  return html`<fieldset><legend>${legend ?? text.whoSees}</legend>
<label class="choice"><input type="radio" name="share" value=""${checked(null)}> ${text.onlyMe}</label>
${shares.map((share) => html`<label class="choice"><input type="radio" name="share" value="${share.profile}"${checked(share.profile)}> ${text.sharedWith(share.viewers)}</label>`)}
</fieldset>`;
}
