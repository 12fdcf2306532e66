// A text area that grows with its text, up to a height, as a Svelte attachment.
import type { Attachment } from 'svelte/attachments';

/** Sets the text area's height to its content's, at most `max` px. */
export function fit(node: HTMLTextAreaElement, max: number): void {
  node.style.height = 'auto';
  node.style.height = `${Math.min(node.scrollHeight, max)}px`;
}

/**
 * Attachment: fits the text area to its text, at most `max` px high, when attached and whenever
 * `value()` changes. Pass the text area's bound value: that covers typing and text the program
 * sets (cleared after a send, a completed command) alike, with one layout per change.
 */
export function autogrow(value: () => unknown, max: number): Attachment<HTMLTextAreaElement> {
  return (node) => {
    value(); // read here: the attachment runs again when it changes
    fit(node, max);
  };
}
