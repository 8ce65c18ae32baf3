/**
 * The icon of a file's type, as the original shows one beside every file value: by exact MIME
 * type, else by its top-level type (`image`, `text`...). These names are the icons Lineage ships
 * as built-in assets (mime/png/<name>.png, and <name>.png for the top-level types, served by the
 * assets routes).
 */
const ICON_BY_MIME: Readonly<Record<string, string>> = {
  "application/msword": "mime-wordprocessing",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "mime-wordprocessing",
  "application/ogg": "audio-x-generic",
  "application/pdf": "mime-pdf",
  "application/postscript": "mime-wordprocessing",
  "application/rtf": "mime-wordprocessing",
  "application/vnd.lotus-1-2-3": "mime-spreadsheet",
  "application/vnd.ms-excel": "mime-spreadsheet",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "mime-spreadsheet",
  "application/vnd.ms-powerpoint": "mime-presentation",
  "application/vnd.oasis.opendocument.presentation": "mime-presentation",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "mime-presentation",
  "application/vnd.oasis.opendocument.spreadsheet": "mime-spreadsheet",
  "application/vnd.oasis.opendocument.text": "mime-wordprocessing",
  "application/vnd.oasis.opendocument.graphics": "mime-vectorgfx",
  "application/vnd.stardivision.calc": "mime-spreadsheet",
  "application/vnd.stardivision.impress": "mime-presentation",
  "application/vnd.stardivision.writer": "mime-wordprocessing",
  "application/vnd.sun.xml.calc": "mime-spreadsheet",
  "application/vnd.sun.xml.impress": "mime-presentation",
  "application/vnd.sun.xml.writer": "mime-wordprocessing",
  "application/vnd.sun.xml.writer.global": "mime-wordprocessing",
  "application/vnd.sun.xml.draw": "mime-vectorgfx",
  "application/wordperfect": "mime-wordprocessing",
  "application/x-7z-compressed": "mime-tgz",
  "application/x-abiword": "mime-wordprocessing",
  "application/x-applix-spreadsheet": "mime-spreadsheet",
  "application/x-applix-word": "mime-wordprocessing",
  "application/x-archive": "mime-tar",
  "application/x-arj": "mime-tgz",
  "application/x-bzip-compressed-tar": "mime-tgz",
  "application/x-bzip": "mime-tgz",
  "application/x-compressed-tar": "mime-tgz",
  "application/x-compress": "mime-tgz",
  "application/x-cpio-compressed": "mime-tgz",
  "application/x-cpio": "mime-tgz",
  "application/x-deb": "mime-tgz",
  "application/x-dvi": "mime-wordprocessing",
  "application/x-executable": "mime-executable",
  "application/x-font-afm": "font-x-generic",
  "application/x-font-bdf": "font-x-generic",
  "application/x-font-linux-psf": "font-x-generic",
  "application/x-font-pcf": "font-x-generic",
  "application/x-font-sunos-news": "font-x-generic",
  "application/x-font-ttf": "font-x-generic",
  "application/x-gnumeric": "mime-spreadsheet",
  "application/x-gzip": "mime-tgz",
  "application/xhtml+xml": "text-html",
  "application/x-killustrator": "mime-vectorgfx",
  "application/x-kpresenter": "mime-presentation",
  "application/x-kspread": "mime-spreadsheet",
  "application/x-kword": "mime-wordprocessing",
  "application/x-ms-dos-executable": "mime-executable",
  "application/x-perl": "mime-shellscript",
  "application/x-php": "text-html",
  "application/x-python-bytecode": "mime-shellscript",
  "application/x-rar": "mime-tgz",
  "application/x-rpm": "mime-rpm",
  "application/x-shellscript": "mime-shellscript",
  "application/x-shockwave-flash": "video-x-generic",
  "application/x-tar": "mime-tar",
  "application/x-tarz": "mime-tgz",
  "application/x-tex": "mime-tex",
  "application/x-zip": "mime-zip",
  "application/zip": "mime-zip",
  application: "mime-zip",
  audio: "mime-sound",
  image: "mime-image2",
  video: "mime-video",
  "image/jpeg": "mime-image",
  "text/html": "mime-html",
  "text/xml": "mime-xml",
  "text/x-c++": "mime-source_cpp",
  "text/x-c": "mime-source_c",
  "text/x-c-header": "mime-source_h",
  "text/x-php": "mime-source_php",
  text: "mime-txt",
  "text/vnd.wap.wml": "mime-html",
  "text/x-csh": "mime-shellscript",
  "text/x-python": "mime-shellscript",
  "text/x-sh": "mime-shellscript",
  "text/x-vcalendar": "mime-vcalendar",
  "text/x-vcard": "mime-address-book",
  "text/x-zsh": "mime-shellscript",
  "text/x-makefile": "mime-make",
};

/** Every icon name of the table: the built-in assets hold one PNG for each under mime/png/. */
export const MIME_ICON_NAMES: readonly string[] = [...new Set(Object.values(ICON_BY_MIME))].sort();

/** The icons of the top-level types (`text`, `image`...), which the original names outside mime/png/. */
const TOP_LEVEL_ICONS: readonly string[] = [...new Set(Object.entries(ICON_BY_MIME).filter(([type]) => !type.includes("/")).map(([, name]) => name))].sort();

/** Every asset path an icon of a file value names: the built-in assets must hold a PNG at each. */
export const MIME_ICON_FILES: readonly string[] = [...MIME_ICON_NAMES.map((name) => `mime/png/${name}.png`), ...TOP_LEVEL_ICONS.map((name) => `${name}.png`)];

/** The icon name of a MIME type (parameters ignored), or undefined when neither it nor its top-level type has one. */
export function mimeIconName(mime: string): string | undefined {
  const type = mime.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!type) return undefined;
  return ICON_BY_MIME[type] ?? ICON_BY_MIME[type.split("/")[0] ?? ""];
}

/**
 * Where the icon of a MIME type is among the assets, as the original names it: the icon of the
 * exact type under `mime/png/` (`mime/png/mime-pdf.png`), the icon of its top-level type at the
 * root (`mime-txt.png` for `text/plain`); undefined when neither has one.
 */
export function mimeIconFile(mime: string): string | undefined {
  const type = mime.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!type) return undefined;
  const exact = ICON_BY_MIME[type];
  if (exact) return `mime/png/${exact}.png`;
  const topLevel = ICON_BY_MIME[type.split("/")[0] ?? ""];
  return topLevel ? `${topLevel}.png` : undefined;
}

/** The size of the icons of file values in the original's API (its CollectionDataFormatter sets 20 pixels). */
export const MIME_ICON_SIZE = 20;

/**
 * The URL of the icon of a MIME type, through the assets route as the original's API links it
 * (`/api/v2/images/assets/sizes/20x20c/mime-txt.png`, `.../20x20c/mime/png/mime-pdf.png`); "" when
 * the type has none, as the original leaves it.
 */
export function mimeIconUri(mime: string): string {
  const file = mimeIconFile(mime);
  return file ? `/api/v2/images/assets/sizes/${MIME_ICON_SIZE}x${MIME_ICON_SIZE}c/${file}` : "";
}
