import { describe, expect, it } from 'vitest';
import { pastedInput, terminalKey } from './terminal-keys';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'isComposing', boolean>> = {}) =>
  terminalKey({ key: k, ctrlKey: false, metaKey: false, altKey: false, isComposing: false, ...mods });

describe('terminalKey', () => {
  it('sends characters, Enter, Backspace, arrows, Ctrl-C and Ctrl-D as a terminal does', () => {
    expect([key('a'), key('é'), key(' '), key('Enter'), key('Backspace'), key('ArrowUp'), key('c', { ctrlKey: true }), key('D', { ctrlKey: true })]).toEqual([
      'a',
      'é',
      ' ',
      '\r',
      '\x7f',
      '\x1b[A',
      '\x03',
      '\x04',
    ]);
  });

  it("leaves the window's keys, Tab and modifiers alone", () => {
    for (const k of [key('Tab'), key('Shift'), key('F5'), key('w', { ctrlKey: true }), key('v', { metaKey: true }), key('a', { altKey: true }), key('a', { isComposing: true })]) {
      expect(k).toBeNull();
    }
  });

  it('pastes lines as typed lines', () => {
    expect(pastedInput('one\ntwo\r\n')).toBe('one\rtwo\r');
  });
});
