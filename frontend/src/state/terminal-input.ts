// Typing into a running terminal of the shown live session, from its tool card: the window
// provides the sender through a Svelte context (as state/editor.ts does the editor), so a card
// deep in the transcript reaches it. A saved session shown read-only is not enabled.
import { getContext, setContext } from 'svelte';

/** Sends input to terminal terminalId of the shown live session; rejects when it could not. */
export interface TerminalInput {
  /** The shown session is live (a saved one shown read-only takes no input, whatever its cards say). */
  enabled(): boolean;
  send(terminalId: string, text: string): Promise<void>;
  interrupt(terminalId: string): Promise<void>;
  /** Reports a failure to the person (the window's error banner). */
  fail(err: unknown): void;
}

const KEY = Symbol('terminal-input');

/** Lets the terminals below the caller take input. */
export function provideTerminalInput(input: TerminalInput): void {
  setContext(KEY, input);
}

/** The sender provided above, or undefined (terminals are then output only). */
export function useTerminalInput(): TerminalInput | undefined {
  return getContext<TerminalInput | undefined>(KEY);
}
