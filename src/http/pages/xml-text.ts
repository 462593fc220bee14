// Text from the store as the XML writers (the Atom feed, the sitemap) put it out. Input refuses
// characters XML 1.0 cannot hold and invisible ones (src/domain/text-controls.ts), but text stored
// before that rule may still have them, and one control character makes the whole document
// unreadable for every reader: each is shown as its name (`{U+0007}`) here, on the way out.
import { revealForbiddenChars } from '../../domain/text-controls.ts';

// `&#39;` rather than `&apos;`: the same in XML, and also read by HTML 4 era feed readers. A raw
// CR would reach every reader as LF (XML 1.0 §2.11 end-of-line handling): `&#13;` keeps it.
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\r': '&#13;' };

/** Escaped for an XML text node or attribute, with the characters XML cannot hold shown by name. */
export const xmlText = (text: string): string => revealForbiddenChars(text).replace(/[&<>"'\r]/g, (char) => XML_ESCAPES[char] as string);

/** For a writer that escapes by itself: only the characters XML cannot hold are shown by name. */
export const xmlSafe = (text: string): string => revealForbiddenChars(text);

/**
 * Plain text for an Atom `type="html"` element (how the `feed` package writes titles and
 * summaries, inside CDATA): escaped once, so a reader shows `<friends>` as written instead of
 * as markup, and so the text can never hold the `]]>` that would end the CDATA section early.
 */
export const atomHtmlText = xmlText;
