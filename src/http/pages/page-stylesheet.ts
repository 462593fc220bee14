// The one stylesheet of the pages, served at CSS_PATH (page-css.ts). System fonts only: nothing is
// loaded from elsewhere.
export const PAGE_CSS = `
:root {
  --ink: #1d2330; --muted: #5b6475; --line: #e3e6ec; --paper: #ffffff; --wash: #f6f7f9;
  --accent: #2f5bd3; --worked: #1f7a4d; --partial: #a86a00; --failed: #b3261e;
  --radius: 10px; color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root { --ink: #e7e9ee; --muted: #a3abbb; --line: #2c3240; --paper: #14171e; --wash: #1b1f28;
    --accent: #8fb0ff; --worked: #5cc495; --partial: #e0a93b; --failed: #f08a82; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--wash); color: var(--ink);
  font: 17px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
a { color: var(--accent); text-decoration-thickness: 1px; text-underline-offset: 2px; }
.site-header, .site-footer { max-width: 760px; margin: 0 auto; padding: 18px 20px; display: flex;
  align-items: baseline; justify-content: space-between; gap: 12px; flex-wrap: wrap; }
.brand { font-weight: 700; font-size: 1.15rem; color: var(--ink); text-decoration: none; letter-spacing: -0.01em; }
.brand span { color: var(--accent); }
.site-header nav a, .site-footer a { color: var(--muted); margin-left: 14px; font-size: 0.92rem; }
.site-footer { color: var(--muted); font-size: 0.88rem; border-top: 1px solid var(--line); margin-top: 32px; }
main { max-width: 760px; margin: 0 auto; padding: 0 20px; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: 22px 24px; margin: 0 0 16px; }
h1 { font-size: clamp(1.55rem, 4.5vw, 2.1rem); line-height: 1.2; margin: 0 0 10px; letter-spacing: -0.015em; }
h2 { font-size: 1.25rem; margin: 1.6em 0 0.5em; }
h3 { font-size: 1.05rem; margin: 1.3em 0 0.4em; }
.lede { color: var(--muted); margin: 0 0 14px; }
.meta { color: var(--muted); font-size: 0.92rem; display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 0 0 12px; }
.tags { display: flex; flex-wrap: wrap; gap: 6px; margin: 0 0 12px; padding: 0; list-style: none; }
.tag { background: var(--wash); border: 1px solid var(--line); border-radius: 999px; padding: 1px 10px; font-size: 0.85rem; color: var(--muted); }
.stack { font-size: 0.9rem; color: var(--muted); margin: 0 0 12px; }
.stack code { font-size: 0.85rem; }
.badges { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 14px; }
.badge { display: inline-block; border-radius: 6px; padding: 2px 9px; font-size: 0.82rem; font-weight: 600;
  border: 1px solid var(--line); background: var(--wash); color: var(--muted); }
.badge.correction { border-color: var(--failed); color: var(--failed); }
.badge.type-fail { border-color: var(--failed); color: var(--failed); }
.badge.type-success { border-color: var(--worked); color: var(--worked); }
.notes { margin: 0 0 14px; padding: 10px 14px; border-left: 3px solid var(--failed); background: var(--wash); font-size: 0.93rem; }
.notes p { margin: 0.2em 0; }
.outcomes { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 10px; margin: 0 0 10px; }
.outcome { border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; text-align: center; background: var(--wash); }
.outcome strong { display: block; font-size: 1.4rem; line-height: 1.2; }
.outcome span { font-size: 0.82rem; color: var(--muted); }
.outcome.worked strong { color: var(--worked); } .outcome.partial strong { color: var(--partial); } .outcome.failed strong { color: var(--failed); }
.summary-line { font-weight: 600; margin: 0 0 8px; }
.checks { font-size: 0.95rem; color: var(--muted); margin: 0; }
.aggregates h2 { font-size: 1.05rem; margin: 0 0 8px; }
.aggregates dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 0 0 8px; }
.aggregates dt { color: var(--muted); } .aggregates dd { margin: 0; overflow-wrap: anywhere; }
.aggregates .of, .fine-print { color: var(--muted); font-size: 0.85rem; } .fine-print { margin: 0; }
.capability h2 { font-size: 1.05rem; margin: 0 0 8px; }
.capability .findings { margin: 0 0 8px; padding-left: 1.2em; font-size: 0.93rem; overflow-wrap: anywhere; }
.capability .changed { border-left: 3px solid var(--failed); padding-left: 8px; margin: 0 0 8px; overflow-wrap: anywhere; }
.badge.tier-T3, .badge.tier-T4 { border-color: var(--failed); color: var(--failed); }
.badge.tier-T2 { border-color: var(--partial); color: var(--partial); }
.story-body { overflow-wrap: anywhere; }
.story-body img { max-width: 100%; height: auto; border-radius: 6px; }
.story-body pre { background: var(--wash); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; overflow-x: auto; font-size: 0.88rem; line-height: 1.45; }
.story-body code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
.story-body :not(pre) > code { background: var(--wash); border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; }
.story-body blockquote { margin: 1em 0; padding: 0 14px; border-left: 3px solid var(--line); color: var(--muted); }
.story-body table { border-collapse: collapse; display: block; overflow-x: auto; }
.story-body th, .story-body td { border: 1px solid var(--line); padding: 4px 10px; }
.hero { width: 100%; max-height: 360px; object-fit: cover; border-radius: 8px; margin: 0 0 14px; }
.story-list { list-style: none; padding: 0; margin: 0; }
.story-list h2 { margin: 0 0 6px; font-size: 1.2rem; }
.story-list h2 a { color: var(--ink); text-decoration: none; }
.story-list h2 a:hover { color: var(--accent); text-decoration: underline; }
.pager { display: flex; justify-content: space-between; margin: 8px 0 0; }
.empty, .tombstone { text-align: center; color: var(--muted); padding: 40px 24px; }
.tombstone h1 { color: var(--ink); }
.actions { display: flex; flex-wrap: wrap; gap: 14px; font-size: 0.92rem; margin: 16px 0 0; }
@media (max-width: 520px) {
  body { font-size: 16px; }
  .card { padding: 16px; border-radius: 0; border-left: 0; border-right: 0; margin: 0 -20px 12px; }
  .outcomes { gap: 6px; }
}
`;
