// Keyboard navigation of a list of options, as a Svelte attachment ({@attach listKeys(...)}).
//
// For a combobox list: the slash-command palette and the file picker. The keyboard stays in the
// field that owns the list (the prompt box, the picker's search field), which names the selected
// option with aria-activedescendant. Up/Down move the selection (wrapping at both ends), Enter or
// Tab pick it (not with Shift, not while an input method composes), Esc closes the list. A handled
// key is prevented, so a later listener on the field (another list, the field's own Enter) skips
// it by checking defaultPrevented; Esc also stops there, so it does not reach the window (where it
// stops the turn). Menus, whose items take the focus themselves, are in menu.ts; both move with
// step().
import type { Attachment } from 'svelte/attachments';

/**
 * The index after pressing `key` in a list of `count` items at `index` (-1: none), wrapping at
 * both ends: ArrowDown, ArrowUp, and with `ends` also Home and End. Null for any other key or an
 * empty list.
 */
export function step(key: string, index: number, count: number, ends = false): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowDown':
      return (index + 1) % count;
    case 'ArrowUp':
      return (index - 1 + count) % count;
    case 'Home':
      return ends ? 0 : null;
    case 'End':
      return ends ? count - 1 : null;
    default:
      return null;
  }
}

/** The list as listKeys sees it at the moment of a key press. */
export interface ListKeys {
  /** The list is shown: while it is not, every key passes through. */
  open: boolean;
  count: number;
  /** The selected option. */
  index: number;
  /** Selects an option (Up/Down). */
  select: (index: number) => void;
  /** Enter or Tab: picks the selected option; false lets the key through (nothing to pick). */
  pick: (key: 'Enter' | 'Tab') => boolean;
  /** Esc. */
  close: () => void;
}

/**
 * Handles one key press for the list; true when it did (the event is then prevented). A key
 * already prevented by an earlier listener is left alone.
 */
export function listKey(e: KeyboardEvent, list: ListKeys): boolean {
  if (!list.open || e.defaultPrevented) return false;
  switch (e.key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      const next = step(e.key, list.index, list.count);
      if (next !== null) list.select(next);
      break;
    }
    case 'Enter':
    case 'Tab':
      if (e.shiftKey || e.isComposing || !list.pick(e.key)) return false;
      break;
    case 'Escape':
      list.close();
      e.stopPropagation();
      break;
    default:
      return false;
  }
  e.preventDefault();
  return true;
}

/**
 * Attachment for the field that owns a list: its key presses go to listKey first. `get` is read
 * at each key press (it may return reactive state; the attachment does not re-run for it).
 */
export function listKeys(get: () => ListKeys): Attachment<HTMLElement> {
  return (node) => {
    const onkeydown = (e: KeyboardEvent) => void listKey(e, get());
    node.addEventListener('keydown', onkeydown);
    return () => node.removeEventListener('keydown', onkeydown);
  };
}
