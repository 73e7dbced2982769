// Personalize: the person's MovieLens files, told apart by name or first
// line.

import {readError} from "../shared/read-error.js";
import {occfm} from "../shared/state.js";
import {startPersonal} from "./session.js";
import {personal} from "./state.js";


// pickPersonalFiles takes one or two files picked or dropped: each is
// recognised as the ratings or the item list, by name or else by its first
// line; once both are there, the catalog is learned.
export async function pickPersonalFiles(files) {
  const info = document.getElementById("p-files-info");
  const unknown = [];
  for (const file of files) {
    let kind = "", why = "";
    try {
      kind = await fileKind(file);
    } catch (err) {
      why = readError(file, err);
    }
    if (kind === "ratings") personal.ratingsFile = file;
    else if (kind === "items") personal.itemsFile = file;
    else unknown.push(why || file.name);
  }
  personal.catalog = "files";
  /** @type {HTMLInputElement} */ (document.querySelector('input[name="p-catalog"][value="files"]')).checked = true;
  const parts = [];
  if (personal.ratingsFile) parts.push(`ratings: ${personal.ratingsFile.name}`);
  if (personal.itemsFile) parts.push(`items: ${personal.itemsFile.name}`);
  if (!personal.ratingsFile) parts.push("now the ratings file (u.data, ratings.dat or ratings.csv)");
  if (!personal.itemsFile) parts.push("now the item list (u.item, movies.dat or movies.csv)");
  if (unknown.length) parts.push(`not recognised: ${unknown.join(", ")}`);
  info.textContent = parts.join(" · ");
  if (occfm) startPersonal();
}

// fileKind says "ratings", "items" or "" for a file: by its name (u.data,
// ratings.*, u.item, movies.*), else by its first line (gunzipped).
export async function fileKind(file) {
  const name = file.name.toLowerCase().replace(/\.gz$/, "");
  if (/(^|[^a-z])(u\.data|ratings)/.test(name) || name.endsWith(".data")) return "ratings";
  if (/(^|[^a-z])(u\.item|movies|items)/.test(name) || name.endsWith(".item")) return "items";
  // The first 4 KiB of text: Go decodes a gzip head (occfm.head).
  const head = new Uint8Array(await file.slice(0, 16384).arrayBuffer());
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  if (gzip && !occfm) return "";
  const text = gzip ? String(occfm.head(head)) : new TextDecoder().decode(head.subarray(0, 4096));
  const line = text.split(/\r?\n/).find((l) => l.trim()) || "";
  if (/^userid,movieid,rating/i.test(line)) return "ratings";
  if (/^movieid,title/i.test(line)) return "items";
  const fields = line.split(/\t|::|,|\|/);
  if (fields.length >= 3 && fields.slice(0, 3).every((f) => /^\s*[0-9.]+\s*$/.test(f))) return "ratings";
  return fields.length >= 3 ? "items" : "";
}
