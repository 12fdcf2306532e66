// Escape inside a part of the page (a confirm step, a dialog, an inline editor) that answers it
// itself: the key is used up there, so the handlers around it (a view's Escape goes back, the
// window's closes a dialog) never see it.

/** A keydown handler: on Escape, prevents the default, stops the event and calls cancel. */
export function escapeTo(cancel: () => void): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    cancel();
  };
}
