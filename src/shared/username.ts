/**
 * The one canonical form of a username, and the checks that keep look-alike and invisible usernames
 * out (docs/decisions/0012-canonical-usernames.md). Sign-in, the login throttle, uniqueness, the
 * SharePoint import and the users search all compare this form and nothing else: when JavaScript's
 * lower-casing and the database's `lower()` disagreed, `vİctim@…` escaped the lockout of `victim@…`
 * and still signed in as that account.
 */

/**
 * Characters that show nothing, or reorder what is shown: Unicode's Default_Ignorable_Code_Point
 * (zero-width spaces and joiners, soft hyphen, bidi marks and embeddings, variation selectors, tag
 * characters, Hangul fillers…), the bidi isolates and marks, and control characters.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cc}\p{Cf}]/u;
const INVISIBLE_GLOBAL = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cc}\p{Cf}]/gu;

export const INVISIBLE_IN_USERNAME_MESSAGE = 'Username must not contain invisible or control characters';
export const LOOKALIKE_USERNAME_MESSAGE = 'This username looks the same as an existing account';

export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/** The text without its invisible characters: what a reader actually sees. */
export function withoutInvisibleCharacters(text: string): string {
  return text.replace(INVISIBLE_GLOBAL, '');
}

/**
 * Optional free text (an availability note, an offer's message): what shows nothing once invisible
 * characters and spaces are taken away is no text at all, stored and sent as empty, as a blank one is.
 */
export const blankIfInvisible = (value: string): string =>
  withoutInvisibleCharacters(value).trim() === '' ? '' : value;

/**
 * NFKC, then a full case fold. Lower, upper, lower again folds ß and capital ẞ to "ss", which
 * `toLowerCase()` alone does not, and leaves sigma in one form (final where a word ends); dotted capital I (U+0130) and dotless small i (U+0131)
 * both become plain "i", since a reader takes either for the letter i. NFKC again at the end, because
 * case mapping can leave a decomposed sequence (e.g. "i" + combining dot).
 */
export function canonicalUsername(username: string): string {
  const folded = username
    .trim()
    .normalize('NFKC')
    .replace(/[\u0130\u0131]/g, 'i')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC');
  return folded;
}

/**
 * Characters that look like a Latin letter or digit in the fonts people use, mapped to it (a
 * focused subset of Unicode TR39's confusables: Cyrillic, Greek and Armenian letters, digits and
 * Latin letters that pass for one another, a few symbols). Applied to the canonical (folded) form, so
 * only lower-case targets are needed; NFKC already turned fullwidth and mathematical letters into
 * plain ones.
 */
const LOOKALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  г: 'r',
  ѕ: 's',
  т: 't',
  ц: 'u',
  ս: 'u',
  ѵ: 'v',
  ԝ: 'w',
  х: 'x',
  у: 'y',
  ү: 'y',
  ʐ: 'z',
  ь: 'b',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ζ: 'z',
  // Armenian
  օ: 'o',
  ո: 'n',
  հ: 'h',
  զ: 'q',
  // Latin look-alikes of one another, and digits
  ɑ: 'a',
  ɡ: 'g',
  ɩ: 'i',
  ȷ: 'j',
  ℓ: 'l',
  '0': 'o',
  '1': 'l',
  '|': 'l',
  // dashes and dots
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '―': '-',
  '−': '-',
  '·': '.',
  '․': '.',
};

/**
 * What a username looks like: two usernames with the same skeleton are taken for one another by a
 * reader. "rn" reads as "m" and "vv" as "w" in most fonts, as in TR39.
 */
export function usernameSkeleton(username: string): string {
  let out = '';
  // A dot above a letter that already has one (i, j, and the ı the canonical form made i) shows
  // nothing: "i" + U+0307 reads as "i". Every other combining mark stays.
  const decomposed = canonicalUsername(username)
    .normalize('NFD')
    .replace(/([ij])\u0307+/g, '$1');
  for (const ch of decomposed) {
    // combining marks stay: "é" and "e" are different letters to a reader
    out += LOOKALIKES[ch] ?? ch;
  }
  return out.replace(/rn/g, 'm').replace(/vv/g, 'w').normalize('NFC');
}

/** The users search: a username matches when its canonical form contains the query's. */
export function usernameMatches(username: string, query: string): boolean {
  return canonicalUsername(username).includes(canonicalUsername(query));
}
