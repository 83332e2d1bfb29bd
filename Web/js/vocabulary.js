// The names and limits the server accepts (GET /api/v1/vocabulary): smart lists, sorts,
// priorities, the list palette and icons, field limits. Read once as the app starts, so the
// app offers exactly what the server takes; a copy is kept for opening offline.
import { api } from "./api.js";

const STORED = "slate.vocabulary";

/** The vocabulary as the server sent it (empty until `loadVocabulary()` resolves). */
export const vocabulary = {
  smartLists: [],
  sorts: [],
  priorities: [],
  palette: [],
  defaultColor: null,
  icons: [],
  defaultIcon: null,
  limits: {},
};

/**
 * Reads the vocabulary (from the server; offline, the copy kept from last time).
 * `options` go to the request (`quiet401` when it is asked for before the session is known).
 */
export async function loadVocabulary(options = {}) {
  let data = null;
  try {
    ({ data } = await api.vocabulary(options));
    localStorage.setItem(STORED, JSON.stringify(data));
  } catch (error) {
    data = JSON.parse(localStorage.getItem(STORED) || "null");
    if (!data) throw error;
  }
  Object.assign(vocabulary, data);
  return vocabulary;
}

/** A priority's title and marks ("High", "!!!"); an unknown name shows as itself. */
export function priorityInfo(name) {
  const priority = vocabulary.priorities.find((p) => p.name === name);
  return priority ? { label: priority.title, marks: priority.marks } : { label: name, marks: "" };
}

/** A priority's rank (higher is more important; unknown: 0). */
export function priorityRank(name) {
  return vocabulary.priorities.find((p) => p.name === name)?.rank ?? 0;
}

/** The emoji of a list icon name; a name not offered draws as the default icon. */
export function iconGlyph(name) {
  const icon = vocabulary.icons.find((i) => i.name === name) || vocabulary.icons.find((i) => i.name === vocabulary.defaultIcon);
  return icon ? icon.glyph : "";
}

/** A smart list by name ({name, title, glyph, sort, status}). */
export function smartList(name) {
  return vocabulary.smartLists.find((s) => s.name === name) || null;
}
