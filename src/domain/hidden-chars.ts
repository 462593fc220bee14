// Invisible characters (Unicode's Default_Ignorable_Code_Point, and the interlinear annotation
// controls) are text no reader sees: a run of tag characters spells a hidden instruction ("ASCII
// smuggling"), a run of variation selectors hidden bytes ("emoji smuggling"), a bidirectional
// override shows text in another order than an agent reads it ("Trojan Source"). Each is kept
// only where a script or an emoji needs it (design.md#untrusted-text); text-controls.ts refuses the rest and
// shows it as a visible marker. Every check looks at most a few code points around the character,
// so judging a whole text stays linear however long its runs are.

/** Every character this file judges; anything else is ordinary text here. */
export const HIDDEN_CANDIDATES = String.raw`\p{Default_Ignorable_Code_Point}\uFFF9-\uFFFB`;

const ZWSP = 0x200b;
const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

/** Scripts whose letters join or form conjuncts, where ZWNJ and ZWJ choose the shape a word takes (Persian, Hindi, Sinhala…). */
const JOINING_SCRIPTS =
  'Arab Syrc Nkoo Mong Mand Mani Phlp Rohg Sogd Adlm Phag Deva Beng Guru Gujr Orya Taml Telu Knda Mlym Sinh Khmr Mymr Tibt Bali Java Sund Tirh';
const JOINING_SCRIPT_LETTER = new RegExp(
  String.raw`^(?=[\p{L}\p{M}])[${JOINING_SCRIPTS.split(' ')
    .map((script) => String.raw`\p{scx=${script}}`)
    .join('')}]$`,
  'u',
);
/** Scripts written without spaces between words, where U+200B marks a word boundary for line breaking (Thai, Khmer…). */
const UNSPACED_SCRIPT_LETTER =
  /^(?=[\p{L}\p{M}])[\p{scx=Thai}\p{scx=Laoo}\p{scx=Khmr}\p{scx=Mymr}\p{scx=Lana}\p{scx=Talu}\p{scx=Tavt}\p{scx=Java}\p{scx=Bali}]$/u;
const EMOJI = /^\p{Emoji}$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const SKIN_TONE = /^\p{Emoji_Modifier}$/u;
const IDEOGRAPH = /^\p{Ideographic}$/u;
const MONGOLIAN_LETTER = /^(?=\p{L})\p{scx=Mong}$/u;
const MARK = /^\p{M}$/u;
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;
/** The bases Unicode's standardized variation sequences (StandardizedVariants.txt) vary with U+FE00–U+FE0D, by class. */
const STANDARDIZED_VARIANT_BASE =
  /^[0\p{Sm}\p{Ideographic}\p{scx=Mymr}\p{scx=Phag}\p{scx=Mani}\p{scx=Egyp}\u2018-\u201d\u3000-\u303f\uff01-\uff1f]$/u;

const is = (pattern: RegExp, codePoint: number | undefined): boolean =>
  codePoint !== undefined && pattern.test(String.fromCodePoint(codePoint));
const isTag = (codePoint: number | undefined): boolean => codePoint !== undefined && codePoint >= 0xe0020 && codePoint <= 0xe007e;
const isZeroWidth = (codePoint: number | undefined): boolean => codePoint === ZWNJ || codePoint === ZWJ || codePoint === ZWSP;

/** The code points around one character: what the rules below look at. */
interface Around {
  /** A few code points either side of the character (a window of the text). */
  points: readonly number[];
  /** Where the character judged stands among them. */
  at: number;
}

/** How far a rule looks: a flag's tag run is at most 7 code points long. */
const REACH = 8;

function windowAt(text: string, index: number): Around {
  let start = index;
  for (let step = 0; step < REACH && start > 0; step += 1) {
    const pair = start > 1 && (text.charCodeAt(start - 1) & 0xfc00) === 0xdc00 && (text.charCodeAt(start - 2) & 0xfc00) === 0xd800;
    start -= pair ? 2 : 1;
  }
  const points: number[] = [];
  let at = 0;
  for (let unit = start; unit < text.length && points.length <= 2 * REACH; ) {
    if (unit === index) at = points.length;
    const codePoint = text.codePointAt(unit) as number;
    points.push(codePoint);
    unit += codePoint > 0xffff ? 2 : 1;
  }
  return { points, at };
}

const before = ({ points, at }: Around, steps = 1): number | undefined => points[at - steps];
const after = ({ points, at }: Around, steps = 1): number | undefined => points[at + steps];

/**
 * A flag's subdivision tag sequence (UTS #51 emoji_tag_sequence, as the England, Scotland and
 * Wales flags use it): U+1F3F4, a subdivision code spelled in tag letters and digits (two letters
 * of region, one to four more), U+E007F. Longer runs are what smuggling needs, so they are refused.
 */
function inFlagTagSequence(place: Around): boolean {
  const { points, at } = place;
  let start = at;
  while (start > at - 7 && isTag(points[start - 1])) start -= 1;
  let end = points[at] === CANCEL_TAG ? at : at + 1;
  while (end < at + 7 && isTag(points[end])) end += 1;
  if (points[start - 1] !== BLACK_FLAG || points[end] !== CANCEL_TAG || end - start < 3 || end - start > 6) return false;
  for (let position = start; position < end; position += 1) {
    const ascii = (points[position] as number) - 0xe0000;
    const letter = ascii >= 0x61 && ascii <= 0x7a;
    if (!letter && (position < start + 2 || ascii < 0x30 || ascii > 0x39)) return false;
  }
  return true;
}

/** A ZWJ between two pictographs of one emoji (👩‍💻, 🏳️‍🌈, 👨🏽‍🚀, 🏴‍☠️). */
function joinsEmoji(place: Around): boolean {
  const left = before(place);
  const endsEmoji =
    is(PICTOGRAPHIC, left) ||
    is(SKIN_TONE, left) ||
    (left === 0xfe0f && is(PICTOGRAPHIC, before(place, 2))) ||
    (left === CANCEL_TAG && inFlagTagSequence({ ...place, at: place.at - 1 }));
  return endsEmoji && is(PICTOGRAPHIC, after(place));
}

/** A single joiner touching a letter of a script that needs it; never two invisible characters in a row. */
function touchesLetterOf(script: RegExp, place: Around): boolean {
  const left = before(place);
  const right = after(place);
  if (isZeroWidth(left) || isZeroWidth(right)) return false;
  return is(script, left) || is(script, right);
}

/** One variation selector right after a base it can vary: a second one, or one after a space, carries nothing visible. */
function variesItsBase(codePoint: number, place: Around): boolean {
  const base = before(place);
  if (codePoint === 0xfe0e || codePoint === 0xfe0f) return is(EMOJI, base);
  if (codePoint >= 0xfe00 && codePoint <= 0xfe0d) return is(STANDARDIZED_VARIANT_BASE, base);
  if (codePoint >= 0xe0100) return is(IDEOGRAPH, base);
  return is(MONGOLIAN_LETTER, base);
}

/**
 * Whether the invisible character at `index` is where its script or emoji needs it. Kept
 * everywhere: the directional marks U+200E, U+200F and U+061C (right-to-left text needs them to
 * place punctuation and numbers; unlike overrides and isolates they reorder nothing beyond the
 * neutral characters beside them). A byte-order mark is kept only at the very start of multi-line
 * text (a file saved on Windows; the markdown normalisation drops it).
 */
export function hiddenCharNeeded(text: string, index: number, multiline: boolean): boolean {
  const codePoint = text.codePointAt(index) as number;
  if (codePoint === 0xfeff) return multiline && index === 0;
  return neededAt(codePoint, windowAt(text, index));
}

function neededAt(codePoint: number, place: Around): boolean {
  if (codePoint === 0x200e || codePoint === 0x200f || codePoint === 0x061c) return true;
  if (codePoint === ZWJ) return joinsEmoji(place) || touchesLetterOf(JOINING_SCRIPT_LETTER, place);
  if (codePoint === ZWNJ) return touchesLetterOf(JOINING_SCRIPT_LETTER, place);
  if (codePoint === ZWSP) return touchesLetterOf(UNSPACED_SCRIPT_LETTER, place);
  if ((codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef))
    return variesItsBase(codePoint, place);
  if (codePoint >= 0x180b && codePoint <= 0x180f && codePoint !== 0x180e) return variesItsBase(codePoint, place);
  if (isTag(codePoint) || codePoint === CANCEL_TAG) return inFlagTagSequence(place);
  // The combining grapheme joiner keeps two combining marks in the order written (Hebrew cantillation).
  if (codePoint === 0x034f) return is(LETTER_OR_MARK, before(place)) && is(MARK, after(place));
  // Hangul fillers stand in for a missing jamo of an old-Hangul syllable, never alone.
  if (codePoint === 0x115f) return is(/^[\u1161-\u11a7\ud7b0-\ud7c6]$/u, after(place));
  if (codePoint === 0x1160) return is(/^[\u1100-\u115e\ua960-\ua97c]$/u, before(place));
  return false;
}

/** How a refusal names an invisible character: what it is, and why it is refused. */
export function describeHiddenChar(codePoint: number): { what: string; why: string } {
  const hides = 'invisible characters can hide text from the people and agents who read it';
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f)
    return {
      what: 'an invisible Unicode tag character',
      why: `tag characters are kept only inside a flag emoji such as England's; ${hides}`,
    };
  if ((codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069))
    return { what: 'a bidirectional override or isolate', why: 'it makes text show in another order than it is read' };
  if (
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef) ||
    (codePoint >= 0x180b && codePoint <= 0x180f)
  )
    return {
      what: 'a variation selector',
      why: `one is kept right after a character it varies, such as an emoji or an ideograph, never two in a row; ${hides}`,
    };
  if (codePoint === ZWJ || codePoint === ZWNJ) {
    const where = 'beside a letter of a script that joins letters, such as Persian or Hindi';
    return codePoint === ZWJ
      ? { what: 'a zero-width joiner', why: `one is kept inside an emoji or ${where}; ${hides}` }
      : { what: 'a zero-width non-joiner', why: `one is kept ${where}; ${hides}` };
  }
  if (codePoint === ZWSP)
    return { what: 'a zero-width space', why: `one is kept beside a letter of a script written without spaces, such as Thai; ${hides}` };
  if (codePoint === 0xfeff)
    return { what: 'a zero-width no-break space', why: `only a byte-order mark at the very start is kept; ${hides}` };
  if (codePoint === 0x00ad) return { what: 'a soft hyphen', why: hides };
  if (codePoint === 0x115f || codePoint === 0x1160 || codePoint === 0x3164 || codePoint === 0xffa0)
    return { what: 'a Hangul filler', why: hides };
  return { what: 'an invisible formatting character', why: hides };
}
