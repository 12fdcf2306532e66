// The protocol inspector's rows: raw journal lines (Messages()) read once into what a row shows.
// The JSON is untrusted agent output: it is only ever rendered as text.
import type { JournalLine } from './protocol';

export type MessageKind = 'request' | 'notification' | 'response' | 'error' | 'other';

export interface JournalRow {
  /** Position in the journal (stable key). */
  index: number;
  direction: 'in' | 'out';
  kind: MessageKind;
  /** The method, or "response" / "error". */
  label: string;
  /** For a response or error: the method of the request it answers, when known. */
  answers?: string;
  /** For session/update: the update kind (agent_message_chunk, tool_call, ...). */
  detail?: string;
  /** The JSON-RPC id, as text ('' for notifications). */
  id: string;
  /** HH:MM:SS.mmm (local time), or the raw timestamp when it does not parse. */
  time: string;
  at: string;
  json: string;
}

function idText(id: unknown): string {
  if (id === undefined || id === null) return '';
  return typeof id === 'string' ? id : JSON.stringify(id);
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** "12:03:04.123" in local time; the input itself when it is not a date. */
export function clockTime(at: string): string {
  const t = Date.parse(at);
  if (Number.isNaN(t)) return at;
  const d = new Date(t);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** Reads journal lines into rows; a response is labelled with the method of its request. */
export function journalRows(lines: readonly JournalLine[] | null | undefined): JournalRow[] {
  const rows: JournalRow[] = [];
  // Requests by direction and id, to name what a response answers.
  const requests = new Map<string, string>();
  (lines ?? []).forEach((line, index) => {
    const direction = line.direction === 'in' ? 'in' : 'out';
    let msg: Record<string, unknown> | null = null;
    try {
      const v = JSON.parse(line.json) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) msg = v as Record<string, unknown>;
    } catch {
      msg = null;
    }
    const method = line.method || (typeof msg?.method === 'string' ? msg.method : '');
    const id = idText(msg?.id);
    let kind: MessageKind;
    let label: string;
    let answers: string | undefined;
    let detail: string | undefined;
    if (method) {
      kind = id ? 'request' : 'notification';
      label = method;
      if (id) requests.set(`${direction}:${id}`, method);
      const update = (msg?.params as { update?: { sessionUpdate?: unknown } } | undefined)?.update?.sessionUpdate;
      if (typeof update === 'string') detail = update;
    } else if (msg && ('result' in msg || 'error' in msg)) {
      kind = 'error' in msg && msg.error !== undefined && msg.error !== null ? 'error' : 'response';
      label = kind;
      // A response travels the other way from its request.
      answers = requests.get(`${direction === 'in' ? 'out' : 'in'}:${id}`);
    } else {
      kind = 'other';
      label = 'message';
    }
    rows.push({ index, direction, kind, label, ...(answers ? { answers } : {}), ...(detail ? { detail } : {}), id, time: clockTime(line.at), at: line.at, json: line.json });
  });
  return rows;
}

/** The message pretty-printed (two-space indent); the raw text when it is not JSON. */
/**
 * Strings longer than this are shown shortened: a pasted image travels as megabytes of base64,
 * which would freeze the panel's layout and tell the reader nothing. The journal keeps them whole.
 */
export const LONG_STRING = 4_000;
/** What is kept of a shortened string. */
const KEPT = 200;

function shorten(s: string): string {
  return s.length <= LONG_STRING ? s : `${s.slice(0, KEPT)}… [${(s.length - KEPT).toLocaleString('en')} more characters not shown]`;
}

/** The message indented for reading, its long strings shortened; text that is not JSON as it is (shortened too). */
export function prettyJSON(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), (_key, value: unknown) => (typeof value === 'string' ? shorten(value) : value), 2);
  } catch {
    return shorten(json);
  }
}
