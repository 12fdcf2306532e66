// Getting the user's attention while the window is not focused (product.md: "a window that is
// not focused gets an OS notification"). Only the page knows whether it has the focus
// (document.hasFocus(), focus and visibilitychange events), so it decides: for a permission
// request or a turn's end of the live session while unfocused it calls NotifyAttention; the Go
// side shows the OS notification (one per session, rate-limited) and sets the window's urgency
// hint. When the window gets the focus back it calls AttentionSeen, once per round of asking.
// A click on the notification raises the window and arrives as an attention:focus event, after
// which focusPrompt() puts the keyboard on the open permission prompt.
import * as api from '../lib/api';
import type { AttentionKind, Entry, PermissionRequest } from '../lib/protocol';
import { entryIndex, type TranscriptState } from './transcript';

export interface AttentionDeps {
  /** Whether the user is looking at the window now (pageFocused by default). */
  focused?: () => boolean;
  /** api.NotifyAttention by default. */
  notify?: (sessionId: string, kind: AttentionKind, agent: string, title: string) => Promise<void>;
  /** api.AttentionSeen by default. */
  seen?: () => Promise<void>;
}

/** True while the page is visible and its window has the focus. */
export function pageFocused(doc: Document = document): boolean {
  return doc.visibilityState !== 'hidden' && doc.hasFocus();
}

export class Attention {
  readonly #focused: () => boolean;
  readonly #notify: NonNullable<AttentionDeps['notify']>;
  readonly #seen: () => Promise<void>;
  /** Attention was asked for since the user last looked. */
  #asked = false;

  constructor(deps: AttentionDeps = {}) {
    this.#focused = deps.focused ?? (() => pageFocused());
    this.#notify = deps.notify ?? api.NotifyAttention;
    this.#seen = deps.seen ?? api.AttentionSeen;
  }

  /** A permission request of the live session `state` arrived: notifies unless focused. */
  permission(state: TranscriptState, request: PermissionRequest): void {
    this.#ask(state, 'permission', permissionTitle(state, request));
  }

  /**
   * An elicitation of the live session `state` opened: notifies unless focused, as a permission
   * request does (the same kind: a decision waiting on the person).
   */
  elicitation(state: TranscriptState, entry: Entry): void {
    this.#ask(state, 'permission', elicitationTitle(entry));
  }

  /** The live session's turn ended, or its agent exited: notifies unless focused. */
  finished(state: TranscriptState): void {
    this.#ask(state, 'finished', finishedTitle(state));
  }

  /** The window may have got the focus back: tells the Go side once, if attention was asked for. */
  looked(): void {
    if (!this.#asked || !this.#focused()) return;
    this.#asked = false;
    this.#seen().catch((err) => console.warn('agentdesk: AttentionSeen failed:', api.errorMessage(err)));
  }

  /** Calls looked() when the window gets the focus or the page becomes visible; returns the remover. */
  listen(win: Window = window): () => void {
    const onFocus = () => this.looked();
    win.addEventListener('focus', onFocus);
    win.document.addEventListener('visibilitychange', onFocus);
    return () => {
      win.removeEventListener('focus', onFocus);
      win.document.removeEventListener('visibilitychange', onFocus);
    };
  }

  #ask(state: TranscriptState, kind: AttentionKind, title: string): void {
    if (this.#focused()) return;
    this.#asked = true;
    // Best effort: a notification that cannot be shown is no reason to bother the user.
    this.#notify(state.sessionId, kind, state.agentName, title).catch((err) =>
      console.warn('agentdesk: NotifyAttention failed:', api.errorMessage(err)),
    );
  }
}

/** What a permission request is about: its own title, else its tool card's. */
export function permissionTitle(state: TranscriptState, request: PermissionRequest): string {
  if (request.title?.trim()) return request.title;
  const i = request.toolCallId ? entryIndex(state, request.toolCallId) : -1;
  return (i >= 0 ? state.entries[i].title : '')?.trim() || 'a tool call';
}

/** What an elicitation asks: its message's first line (bounded), else what kind of question it is. */
export function elicitationTitle(entry: Entry): string {
  const e = entry.elicitation;
  const first = e?.message?.trim().split('\n', 1)[0]?.trim() ?? '';
  if (first) return first.length > 120 ? first.slice(0, 119) + '…' : first;
  return e?.mode === 'url' ? 'a page to open' : 'a question';
}

/** Which session finished (its title, else its first prompt), and how when it was not a normal end. */
export function finishedTitle(state: TranscriptState): string {
  const firstPrompt = state.entries.find((e) => e.kind === 'user')?.text?.trim();
  const title = state.title.trim() || firstPrompt || 'Untitled session';
  if (state.state === 'exited' || state.state === 'failed') return `${title} (the agent ${state.state})`;
  const reason = state.turns[state.turns.length - 1]?.stopReason;
  return reason && reason !== 'end_turn' ? `${title} (${reason.replace(/_/g, ' ')})` : title;
}

/**
 * Puts the keyboard on the first open permission prompt or open elicitation of the shown
 * transcript, or on request `requestId`'s, and scrolls it into view: a permission's allow option
 * when it has one, an elicitation's first field, else its accept button. False when none is
 * rendered.
 */
export function focusPrompt(root: ParentNode = document, requestId?: string): boolean {
  const prompts = Array.from(
    root.querySelectorAll<HTMLElement>('[data-testid="permission"], [data-testid="elicitation"][data-state="open"]'),
  );
  const prompt = prompts.find((p) => p.dataset.requestId === requestId) ?? prompts[0];
  if (!prompt) return false;
  const options = Array.from(prompt.querySelectorAll<HTMLButtonElement>('[data-testid="permission-option"]'));
  const target =
    options.find((o) => o.dataset.verdict === 'allow') ??
    options[0] ??
    prompt.querySelector<HTMLElement>('[data-testid="elicitation-field"] :is(input, select):not(:disabled), [data-testid="elicitation-accept"]');
  prompt.scrollIntoView?.({ block: 'center' });
  (target ?? prompt).focus();
  return true;
}
