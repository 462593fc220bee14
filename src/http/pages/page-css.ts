// Where the one stylesheet of the pages is served (the CSP allows styles from this origin only, and
// no scripts at all). The stylesheet itself is page-stylesheet.ts, loaded when it is first asked
// for: browsers cache it, and most cold starts never serve it.
export const CSS_PATH = '/assets/lorebook.css';
