// The characters and fragments that make CommonMark and GFM structure, for the markdown cost fuzz
// test and `npm run fuzz:markdown`: containers, emphasis, code, links and footnotes, raw HTML,
// setext underlines, tables, autolinks, and plain words between them.
export const MARKDOWN_TOKENS = [
  '>', '> ', '- ', '* ', '+ ', '1. ', '2) ', '  ', '    ', '\t', '\n', '\n\n',
  '*', '**', '_', '__', '~', '~~', '`', '``', '```\n', '\\`', '[', ']', '](', '(', ')', '![', '[^a]', '[^a]: note\n',
  '<!--', '-->', '<?', '<!X', '=', '\n===\n', '\n---\n',
  '[r]', '[r]: https://example.com/a-long-address "title"\n', '<', '>', '&', '"', '\\', '#', '# ', '---\n',
  '|', '|-', '| a ', '|:-:', 'www.example.com', 'https://example.com', 'a', 'word ', 'x',
];
