// A name that loses its middle, never its end: the head shrinks to an ellipsis first, the tail (a
// file's name, a test's own name) stays whole while it fits. The full text is the title.
import type { ReactNode } from 'react';
import { splitForElision } from '../store/row-text.js';

export function Elided({ text, after }: { text: string; after?: ReactNode }) {
  const { head, tail } = splitForElision(text);
  return (
    <span className="elided">
      {head && <span className="elided-head">{head}</span>}
      <span className="elided-tail" data-testid="elided-tail">
        {tail}
        {after}
      </span>
    </span>
  );
}
