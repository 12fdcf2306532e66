import { afterEach, describe, expect, it, vi } from 'vitest';
import { clickOutside, focusLeave } from './outside';

afterEach(() => document.body.replaceChildren());

function el<K extends keyof HTMLElementTagNameMap>(tag: K, parent: HTMLElement = document.body): HTMLElementTagNameMap[K] {
  return parent.appendChild(document.createElement(tag));
}

function press(target: Element) {
  target.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, cancelable: true }));
}

describe('clickOutside', () => {
  it('reports a press outside the node and its companions, not inside them', () => {
    const popup = el('div');
    const inner = el('button', popup);
    const trigger = el('button');
    const elsewhere = el('p');
    const onOutside = vi.fn();
    const detach = clickOutside(onOutside, () => [trigger, null])(popup) as () => void;
    press(inner);
    press(trigger);
    expect(onOutside).not.toHaveBeenCalled();
    press(elsewhere);
    expect(onOutside).toHaveBeenCalledTimes(1);
    detach();
    press(elsewhere);
    expect(onOutside).toHaveBeenCalledTimes(1);
  });

  it('hears the press before the pressed element does (capture), even if that one stops it', () => {
    const popup = el('div');
    const stopper = el('button');
    stopper.addEventListener('pointerdown', (e) => e.stopPropagation());
    const onOutside = vi.fn();
    clickOutside(onOutside)(popup);
    press(stopper);
    expect(onOutside).toHaveBeenCalledTimes(1);
  });
});

describe('focusLeave', () => {
  it('reports the focus moving out, not within the node or to its companions', () => {
    const box = el('div');
    const a = el('input', box);
    const b = el('input', box);
    const companion = el('button');
    const out = el('input');
    const onLeave = vi.fn();
    focusLeave(onLeave, { also: () => [companion] })(box);
    a.focus();
    b.focus();
    expect(onLeave).not.toHaveBeenCalled();
    b.dispatchEvent(new FocusEvent('focusout', { bubbles: true, relatedTarget: companion }));
    expect(onLeave).not.toHaveBeenCalled();
    out.focus();
    expect(onLeave).toHaveBeenCalledTimes(1);
  });

  it('counts focus going nowhere as leaving unless told not to', () => {
    const box = el('div');
    const a = el('input', box);
    const leaves = vi.fn();
    const stays = vi.fn();
    focusLeave(leaves)(box);
    focusLeave(stays, { nowhere: false })(box);
    a.focus();
    a.blur();
    expect(leaves).toHaveBeenCalledTimes(1);
    expect(stays).not.toHaveBeenCalled();
  });
});
