import { afterEach, describe, expect, it } from 'vitest';
import { focusUnlessTyping, typing } from './focus';

afterEach(() => document.body.replaceChildren());

describe('focusUnlessTyping', () => {
  it('takes the focus from a button, not from a field the person types in', () => {
    const button = document.body.appendChild(document.createElement('button'));
    const target = document.body.appendChild(document.createElement('button'));
    button.focus();
    expect(typing()).toBe(false);
    focusUnlessTyping(target);
    expect(document.activeElement).toBe(target);

    for (const tag of ['input', 'textarea', 'select'] as const) {
      const field = document.body.appendChild(document.createElement(tag));
      field.focus();
      expect(typing()).toBe(true);
      focusUnlessTyping(target);
      expect(document.activeElement).toBe(field);
    }
  });

  it('does not take the focus from a menu or a dialog', () => {
    const target = document.body.appendChild(document.createElement('button'));
    for (const role of ['menu', 'dialog', 'alertdialog']) {
      const box = document.body.appendChild(document.createElement('div'));
      box.setAttribute('role', role);
      const item = box.appendChild(document.createElement('button'));
      item.focus();
      expect(typing()).toBe(true);
      focusUnlessTyping(target);
      expect(document.activeElement).toBe(item);
    }
  });
});
