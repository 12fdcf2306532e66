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
});
