// A story body shown without rendering its markdown: the text itself, escaped, in a <pre>, under
// a note saying why. For a story stored before the cost limits existed that is over one of them,
// or whose render ran past its budget: the page stays readable and costs one linear escape.
import { escapeToBuffer, type StringBuffer } from 'hono/utils/html';

const escaped = (text: string): string => {
  const buffer: StringBuffer = [''];
  escapeToBuffer(text, buffer);
  return buffer[0] as string;
};

export function degradedBody(markdown: string, reason: string): string {
  return `<div class="notes" data-degraded="true"><p>This story is shown as plain text: ${escaped(reason)}</p></div>\n<pre class="plain">${escaped(markdown)}</pre>`;
}
