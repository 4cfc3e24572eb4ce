// The page's language: ?lang= > the switcher's choice (localStorage and the tabletop_lang
// cookie, which the server also reads, on every request and websocket) > the server's
// pick from Accept-Language. The catalogues come from GET /api/i18n as JSON (no build
// step); elements with data-i18n (and data-i18n-placeholder / -title / -label, the last an
// aria-label) show their msgid translated; t() and tn() translate in scripts, with the language's CLDR plural rule.
const KEY = "tabletop_lang";
const asked = new URLSearchParams(location.search).get("lang");
if (asked) remember(asked);

function remember(code) {
  try { localStorage.setItem(KEY, code); } catch (e) { /* private mode: the cookie stays */ }
  document.cookie = `${KEY}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
}

function stored() {
  try { return localStorage.getItem(KEY); } catch (e) { return null; }
}

let messages = {};
let domains = {};
let plural = (n) => (n !== 1 ? 1 : 0);
export let lang = "en";

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in (params || {}) ? String(params[name]) : all));
}

/** ``msgid`` translated (the pages' catalogue, then the core's), its {placeholders} filled. */
export function t(msgid, params) {
  const found = messages[msgid];
  return fill(typeof found === "string" ? found : msgid, params);
}

/** A count: the form the language's plural rule picks for ``n`` ({n} filled too). */
export function tn(singular, pluralText, n, params) {
  const forms = messages[singular];
  const all = { n, ...(params || {}) };
  if (Array.isArray(forms)) return fill(forms[plural(n)] ?? forms[forms.length - 1], all);
  return fill(n === 1 ? singular : pluralText, all);
}

/** ``msgid`` of a game's own catalogue (its package: ``tabletop_quartino``). */
export function tIn(domain, msgid, params) {
  const found = ((domains[domain] || {}).messages || {})[msgid];
  return fill(typeof found === "string" ? found : msgid, params);
}

/** A count in a game's own catalogue (its plural rule is the language's). */
export function tnIn(domain, singular, pluralText, n, params) {
  const forms = ((domains[domain] || {}).messages || {})[singular];
  const all = { n, ...(params || {}) };
  if (Array.isArray(forms)) return fill(forms[plural(n)] ?? forms[forms.length - 1], all);
  return fill(n === 1 ? singular : pluralText, all);
}

/** A script's words: ``table`` maps keys to English msgids (a pair [singular, plural] for a
 * count, which is ``{n}``), of the pages' catalogue or of the game ``domain``'s. Returns
 * ``[T, fill]``: ``T.key`` is the text translated, ``fill(key, values)`` fills it (a missing
 * value: empty). tools/i18n-update and the catalogue tests read these tables' msgids. */
export function words(table, domain) {
  const one = (text) => (domain ? tIn(domain, text) : t(text));
  const T = new Proxy(table, {
    get(target, key) {
      const value = target[key];
      return typeof value === "string" ? one(value) : value;
    },
  });
  const put = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ""));
  const filled = (key, values = {}) => {
    const value = table[key];
    if (!Array.isArray(value)) return put(one(value), values);
    const n = values.n ?? 0;
    return put(domain ? tnIn(domain, value[0], value[1], n) : tn(value[0], value[1], n), { ...values, n });
  };
  return [T, filled];
}

function translatePage(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.dataset.i18n = el.dataset.i18n || el.textContent.trim();
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.title = t(el.dataset.i18nTitle);
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
}

function switcher(languages) {
  const header = document.querySelector("header");
  if (!header || document.getElementById("lang")) return;
  const select = document.createElement("select");
  select.id = "lang";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(languages)) {
    const option = new Option(name, code, false, code === lang);
    select.append(option);
  }
  select.addEventListener("change", () => {
    remember(select.value);
    const query = new URLSearchParams(location.search);
    query.set("lang", select.value); // the token (the seat) stays in the query
    location.search = query.toString();
  });
  header.append(select);
}

async function load() {
  const choice = asked || stored();
  const answer = await fetch(`/api/i18n${choice ? `?lang=${encodeURIComponent(choice)}` : ""}`);
  const data = await answer.json();
  if (!answer.ok) return;
  lang = data.lang;
  if (!choice) remember(lang);
  const catalogues = data.catalogues || {};
  domains = catalogues;
  // the pages' own words first, then the core's (a game's words: tIn(domain, ...))
  messages = { ...(catalogues.tabletop || {}).messages, ...(catalogues["tabletop.web"] || {}).messages };
  const rule = (catalogues.tabletop || {}).plural || "n != 1";
  if (/^[\sn0-9%=!<>&|?:()]+$/.test(rule)) {
    const parts = rule; // C syntax, read by JavaScript too; only these characters
    plural = (n) => Number(Function("n", `return (${parts});`)(n));
  }
  document.documentElement.lang = lang;
  translatePage(document);
  switcher(data.languages || {});
}

export const ready = load().catch(() => {});
