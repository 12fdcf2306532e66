// The window's keys for the live sessions (issue 15). Ctrl+Shift+N (new session: WebKitGTK and
// Chromium keep plain Ctrl+N for a new window), Ctrl+PageDown / Ctrl+PageUp (next / previous
// live session), Ctrl+W (close the shown one, which asks first while a turn runs) and Ctrl+B
// (show or hide the sidebar). Cmd stands for Ctrl on macOS. An attachment on any element of the page: it listens on its window.
import type { Attachment } from 'svelte/attachments';

export type ShortcutAction = 'new' | 'next' | 'prev' | 'close' | 'sidebar';

/** What a key press asks for, or null. */
export function shortcutFor(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): ShortcutAction | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (e.shiftKey) return key === 'n' ? 'new' : null;
  switch (key) {
    case 'PageDown':
      return 'next';
    case 'PageUp':
      return 'prev';
    case 'w':
      return 'close';
    case 'b':
      return 'sidebar';
    default:
      return null;
  }
}

/**
 * Attachment: runs the handler of each shortcut pressed anywhere in the window (the key's
 * default is prevented). A press another handler already took (defaultPrevented) is left alone.
 */
export function shortcuts(handlers: Partial<Record<ShortcutAction, () => void>>): Attachment<HTMLElement> {
  return (node) => {
    const win = node.ownerDocument.defaultView;
    if (!win) return;
    const onkeydown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const action = shortcutFor(e);
      const run = action ? handlers[action] : undefined;
      if (!run) return;
      e.preventDefault();
      run();
    };
    win.addEventListener('keydown', onkeydown);
    return () => win.removeEventListener('keydown', onkeydown);
  };
}
