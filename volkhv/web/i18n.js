// The page's words: one catalogue per language (`lang-XX.json`, embedded
// like every other file), chosen by the header's switch (remembered) or
// else by the browser's languages. Code asks for words by key; no
// interface sentence lives in the code.

const DEFAULT = "en";
// Kept apart from the player's game choices: choosing a language is not
// a first visit's end.
const KEY = "volkhv.lang";

function chosenLanguage() {
  try {
    return localStorage.getItem(KEY);
  } catch (_) {
    return null;
  }
}

async function json(path) {
  const res = await fetch(path);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
}

// [{code, name}] of every catalogue the server embeds.
export const LANGUAGES = await json("/api/languages").catch(() => [{ code: DEFAULT, name: "English" }]);

function choose() {
  const have = new Set(LANGUAGES.map((l) => l.code));
  const chosen = chosenLanguage();
  if (chosen && have.has(chosen)) return chosen;
  for (const tag of navigator.languages || [navigator.language]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (have.has(code)) return code;
  }
  return DEFAULT;
}

export const lang = choose();
const catalogue = await json(`/lang-${lang}.json`);
const words = catalogue.ui;
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

document.documentElement.lang = lang;

// A number as the language writes it (1 000 in ru and kk).
export const num = (n) => numbers.format(n);

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (all, k) => {
    if (!(k in values)) return all;
    const v = values[k];
    return typeof v === "number" ? num(v) : String(v);
  });
}

// The words of `key` with `{name}`s filled from `values`; a plural entry is
// chosen by `values.n`. A missing key is a defect: it shows as the key and
// is logged (the browser tests fail on console errors).
export function t(key, values = {}) {
  let entry = words[key];
  if (entry === undefined) {
    console.error(`i18n: no "${key}" in lang-${lang}.json`);
    return key;
  }
  if (typeof entry === "object") entry = entry[plurals.select(values.n ?? 0)] ?? entry.other;
  return fill(entry, values);
}

// `true` if the catalogue has `key` (for the optional, more precise words).
export const has = (key) => words[key] !== undefined;

// The first letter in upper case: templates are written in lower case so
// that they can sit inside another sentence.
export const capital = (s) => (s ? s[0].toLocaleUpperCase(lang) + s.slice(1) : s);

// A lesson overlay: the catalogue's translation of the lessons' words for
// `variant` (same shape as lessons.json's text), or null in English.
export const lessonWords = (variant) => (catalogue.lessons ? catalogue.lessons[variant] || null : null);

// Words of the static page: `data-i18n` (text), `data-i18n-title`,
// `data-i18n-placeholder`, `data-i18n-aria-label`.
export function translatePage(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const [attr, data] of [["title", "i18nTitle"], ["placeholder", "i18nPlaceholder"], ["aria-label", "i18nAriaLabel"]]) {
    for (const e of root.querySelectorAll(`[data-${attr === "aria-label" ? "i18n-aria-label" : `i18n-${attr}`}]`)) {
      e.setAttribute(attr, t(e.dataset[data]));
    }
  }
}

// The header's language switch: a change is remembered and the page is
// drawn again in the new language.
export function languageSwitch(select) {
  if (!select) return;
  select.replaceChildren(...LANGUAGES.map((l) => new Option(l.name, l.code)));
  select.value = lang;
  select.addEventListener("change", () => {
    try {
      localStorage.setItem(KEY, select.value);
    } catch (_) {
      // Nothing kept: the switch lasts this page.
    }
    location.reload();
  });
}

// Every page: its static words and the switch.
translatePage();
languageSwitch(document.getElementById("lang"));
