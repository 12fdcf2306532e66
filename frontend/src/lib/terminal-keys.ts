// What a key press in a terminal's output sends to the command, as a terminal would: the
// character typed, Enter as a carriage return (the line discipline makes it the end of a line),
// Backspace as DEL (its erase character), the arrows as xterm's sequences, Ctrl-C and Ctrl-D as
// their control characters. Everything else (Tab, Escape, the window's shortcuts) is left to the
// page: null.

type Key = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'isComposing'>;

const special: Record<string, string> = {
  Enter: '\r',
  Backspace: '\x7f',
  ArrowUp: '\x1b[A',
  ArrowDown: '\x1b[B',
  ArrowRight: '\x1b[C',
  ArrowLeft: '\x1b[D',
};

/** The input key press e sends, or null when it is not the terminal's. */
export function terminalKey(e: Key): string | null {
  if (e.isComposing || e.metaKey || e.altKey) return null;
  if (e.ctrlKey) {
    const k = e.key.toLowerCase();
    return k === 'c' ? '\x03' : k === 'd' ? '\x04' : null;
  }
  if (e.key in special) return special[e.key];
  return [...e.key].length === 1 ? e.key : null; // one character ("é" too); not "Shift", "F1"
}

/** Pasted text as typed input: line ends become carriage returns, as Enter sends. */
export function pastedInput(text: string): string {
  return text.replace(/\r?\n/g, '\r');
}

/** The most input sent at once (terminal.MaxInput in backend/acp/terminal). */
export const MAX_TERMINAL_INPUT = 4096;
