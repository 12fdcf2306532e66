// "Elsewhere" for popups, as Svelte attachments: a press outside an element (clickOutside) and
// the keyboard focus leaving it (focusLeave). Both take the other elements that count as inside,
// e.g. the button that opened a menu: a press on it toggles the menu rather than closing it twice.
//
// A press is noticed on the window in the capture phase, at pointerdown: before whatever the press
// does, and whether or not the pressed element takes the focus (WebKit does not focus a clicked
// button, so focus alone says little about where a click went).
import type { Attachment } from 'svelte/attachments';

/** Elements, looked up when needed, that count as inside besides the attached node. */
export type Also = () => readonly (Element | null | undefined)[];

function within(node: Element, also: Also | undefined, target: Node): boolean {
  return node.contains(target) || (also?.() ?? []).some((el) => !!el?.contains(target));
}

/** Calls `onOutside` for every press that starts outside the node (and `also`). */
export function clickOutside(onOutside: (e: PointerEvent) => void, also?: Also): Attachment<HTMLElement> {
  return (node) => {
    const onpointerdown = (e: PointerEvent) => {
      const target = e.target as Node | null;
      if (target && !within(node, also, target)) onOutside(e);
    };
    window.addEventListener('pointerdown', onpointerdown, true);
    return () => window.removeEventListener('pointerdown', onpointerdown, true);
  };
}

export interface FocusLeaveOptions {
  /** Elements that count as inside besides the node. */
  also?: Also;
  /**
   * Whether focus going nowhere (to the page's body: a click on something that does not take the
   * focus, the window losing it) counts as leaving. Default true.
   */
  nowhere?: boolean;
}

/** Calls `onLeave` when the keyboard focus moves from inside the node to outside it. */
export function focusLeave(onLeave: () => void, opts: FocusLeaveOptions = {}): Attachment<HTMLElement> {
  const nowhere = opts.nowhere ?? true;
  return (node) => {
    const onfocusout = (e: FocusEvent) => {
      const to = e.relatedTarget as Node | null;
      if (to ? !within(node, opts.also, to) : nowhere) onLeave();
    };
    node.addEventListener('focusout', onfocusout);
    return () => node.removeEventListener('focusout', onfocusout);
  };
}
