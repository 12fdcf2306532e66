// A menu's behaviour, as one Svelte attachment on the element with role="menu": its first item
// takes the focus when it opens; Up/Down (wrapping), Home and End move the focus among its
// [role=menuitem] elements; Esc closes it and gives the focus back to its button; Tab closes it
// and lets the focus move on; so does the focus leaving it, or a press outside it and its button.
import type { Attachment } from 'svelte/attachments';
import { step } from './listnav';
import { clickOutside, focusLeave } from './outside';

export interface MenuOptions {
  /**
   * Closes the menu. `refocus`: give the focus back to the menu's button (Esc); false when it
   * went elsewhere already (Tab, a click outside, the focus leaving).
   */
  close: (refocus: boolean) => void;
  /** The button that opens the menu: a press or focus there is not outside. */
  trigger?: () => Element | null | undefined;
}

export function menu(opts: MenuOptions): Attachment<HTMLElement> {
  const also = () => [opts.trigger?.()];
  const leave = focusLeave(() => opts.close(false), { also, nowhere: false });
  const outside = clickOutside(() => opts.close(false), also);
  return (node) => {
    const items = () => Array.from(node.querySelectorAll<HTMLElement>('[role=menuitem]'));
    items()[0]?.focus();
    const onkeydown = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        opts.close(true);
      } else if (e.key === 'Tab') {
        opts.close(false);
      } else {
        const list = items();
        const next = step(e.key, list.indexOf(document.activeElement as HTMLElement), list.length, true);
        if (next === null) return;
        e.preventDefault();
        list[next].focus();
      }
    };
    node.addEventListener('keydown', onkeydown);
    const offLeave = leave(node);
    const offOutside = outside(node);
    return () => {
      node.removeEventListener('keydown', onkeydown);
      if (typeof offLeave === 'function') offLeave();
      if (typeof offOutside === 'function') offOutside();
    };
  };
}
