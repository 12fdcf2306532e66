// The ONLY importer of the Wails runtime. Everything the page needs from it goes through here.
import { BrowserOpenURL, ClipboardSetText, EventsOn, OnFileDrop } from '../../wailsjs/runtime/runtime.js';
import {
  ATTENTION_FOCUS_EVENT,
  FILES_DROPPED_EVENT,
  HISTORY_STATUS_EVENT,
  QUIT_REQUEST_EVENT,
  SESSION_EVENT,
  isAttentionFocus,
  isFilesDropped,
  isHistoryStatus,
  isQuitRequest,
  isSessionEvent,
  type AttentionFocus,
  type FilesDropped,
  type HistoryStatus,
  type QuitRequest,
  type SessionEvent,
} from './protocol';

/**
 * Calls `handler` with the payloads of every `session:event` message, in order. One message may
 * carry several (the Go side sends each flush of a stream as one message, acp.BatchEmitter), and
 * the handler gets them together so that it can fold them at once. Returns a function that
 * removes only this listener (never use EventsOff: it drops every listener for the name).
 */
export function onSessionEvents(handler: (events: SessionEvent[]) => void): () => void {
  const off = EventsOn(SESSION_EVENT, (...data: unknown[]) => {
    const events: SessionEvent[] = [];
    for (const payload of data) {
      if (isSessionEvent(payload)) events.push(payload);
      else console.warn('agentdesk: ignoring malformed session event', payload);
    }
    if (events.length > 0) handler(events);
  });
  return remover(off);
}

/** EventsOn's remover; a no-op where the runtime gives none (the tests' mock). */
function remover(off: unknown): () => void {
  return typeof off === 'function' ? (off as () => void) : () => {};
}

/** Calls `handler` with the first payload of each `name` message that `is` accepts; returns the remover. */
function listen<T>(name: string, is: (v: unknown) => v is T, handler: (v: T) => void): () => void {
  return remover(
    EventsOn(name, (...data: unknown[]) => {
      if (is(data[0])) handler(data[0]);
    }),
  );
}

/** Calls `handler` when saving the history stops or starts working again. Returns the remover. */
export function onHistoryStatus(handler: (status: HistoryStatus) => void): () => void {
  return listen(HISTORY_STATUS_EVENT, isHistoryStatus, handler);
}

/** Calls `handler` when the user clicked a notification (the window was raised). Returns the remover. */
export function onAttentionFocus(handler: (focus: AttentionFocus) => void): () => void {
  return listen(ATTENTION_FOCUS_EVENT, isAttentionFocus, handler);
}

/** Calls `handler` when the window's close waits for the user (turns would be cut short). Returns the remover. */
export function onQuitRequest(handler: (req: QuitRequest) => void): () => void {
  return listen(QUIT_REQUEST_EVENT, isQuitRequest, handler);
}

/**
 * Calls `handler` with the files the person dropped on the window (app_drop.go), and installs
 * Wails' drop handlers on the page: they keep the webview from opening a dropped file in place
 * of the app, and mark the element with the `--wails-drop-target: drop` style that the files are
 * over (class `wails-drop-target-active`). The paths come from the Go side's event, not from
 * OnFileDrop's callback: Go must have noted them before the page may attach them. Returns the
 * remover of the handler (the page's drop handlers stay).
 */
export function onFilesDropped(handler: (drop: FilesDropped) => void): () => void {
  OnFileDrop(() => {}, true);
  return listen(FILES_DROPPED_EVENT, isFilesDropped, handler);
}

/** The Go side's name for an install's progress (app_registry.go registryProgressEvent). */
export const REGISTRY_PROGRESS_EVENT = 'registry:progress';

/** One step of an install from the ACP registry, as it starts. */
export interface RegistryProgress {
  id: string;
  step: string;
}

/** Calls `handler` with each step of an install from the registry. Returns the remover. */
export function onRegistryProgress(handler: (p: RegistryProgress) => void): () => void {
  return listen(REGISTRY_PROGRESS_EVENT, isRegistryProgress, handler);
}

function isRegistryProgress(v: unknown): v is RegistryProgress {
  const p = v as RegistryProgress | undefined;
  return !!p && typeof p.id === 'string' && typeof p.step === 'string';
}

/** The Go side's name for a preset install's progress (app_presets.go presetProgressEvent). */
export const PRESET_PROGRESS_EVENT = 'preset:progress';

/** Calls `handler` with each step of a preset's install (same shape as the registry's). Returns the remover. */
export function onPresetProgress(handler: (p: RegistryProgress) => void): () => void {
  return listen(PRESET_PROGRESS_EVENT, isRegistryProgress, handler);
}

const EXTERNAL_URL = /^(https?:|mailto:)/i;

/** True for URLs we hand to the system browser; everything else is ignored. */
export function isExternalURL(url: string): boolean {
  return EXTERNAL_URL.test(url.trim());
}

/** Opens an http(s)/mailto URL in the system browser; the webview itself never navigates. */
export function openExternal(url: string): void {
  const u = url.trim();
  if (!isExternalURL(u)) return;
  BrowserOpenURL(u);
}

/**
 * Puts `text` on the system clipboard (through the Go side: the webview's own clipboard API needs
 * a secure context and a user gesture). Rejects when the runtime reports that it could not.
 */
export async function copyText(text: string): Promise<void> {
  const ok = await ClipboardSetText(text);
  if (ok === false) throw new Error('Could not copy to the clipboard.');
}
