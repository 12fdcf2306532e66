// Focus that does not get in the person's way: something that appears (a permission prompt's
// first allow button, the prompt box once the session is ready) takes the focus only when the
// person is not typing in a field nor using a menu or a dialog (taking the focus from a menu
// would close it under their pointer).
import type { Attachment } from 'svelte/attachments';

/** What holds the person's focus as much as a field: a menu or a dialog (and anything in one). */
const BUSY = '[role=menu], [role=dialog], [role=alertdialog]';

/** True when `el` (default: the focused element) is a field the person types in, or is in a menu or a dialog. */
export function typing(el: Element | null = document.activeElement): boolean {
  return (
    el instanceof HTMLInputElement ||
    el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement ||
    !!el?.closest(BUSY)
  );
}

/**
 * Attachment: focuses the node (without scrolling it into view) when attached, unless the
 * person is typing. Attach it conditionally ({@attach ready ? focusUnlessTyping : null}) to
 * focus again each time the condition turns true.
 */
export const focusUnlessTyping: Attachment<HTMLElement> = (node) => {
  if (!typing()) node.focus({ preventScroll: true });
};
