// Small formatting helpers shared by components.

/** Last path element, for / and \ separators; the path itself when it has none. */
export function basename(path: string | null | undefined): string {
  if (!path) return '';
  const trimmed = path.replace(/[\\/]+$/, '');
  if (trimmed === '') return path;
  const i = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 d ago", else a date. */
export function relativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d === 1) return 'yesterday';
  if (d < 7) return `${d} d ago`;
  const date = new Date(t);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString(undefined, sameYear ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short', day: 'numeric' });
}

/** 12 s, 3 min 04 s, 1 h 02 min. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/**
 * A measured span (a turn's wall time, the usage ledger's time): like formatDuration, but a
 * span under ten seconds keeps a tenth (0.4 s, 3.2 s, <0.1 s), so a quick turn does not read "0 s".
 */
export function formatSpan(ms: number): string {
  if (ms > 0 && ms < 50) return '<0.1 s';
  if (ms > 0 && ms < 10_000) return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
  return formatDuration(ms);
}

/** 1234 -> "1.2k", 200000 -> "200k". */
export function compactNumber(n: number): string {
  if (!Number.isFinite(n)) return '?';
  const abs = Math.abs(n);
  if (abs < 1000) return String(Math.round(n));
  if (abs < 1_000_000) return `${(n / 1000).toFixed(abs < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/**
 * A cost as the receipts' Go side words it too (receipt.CostText): "$0.0042", "$1.50", "$0.00",
 * "0.75 EUR"; four decimals below one, and "<$0.0001" below what those show.
 */
export function formatCost(cost: { amount: number; currency: string } | null | undefined): string {
  if (!cost || !Number.isFinite(cost.amount)) return '';
  const { amount, currency } = cost;
  let num = amount.toFixed(amount > 0 && amount < 1 ? 4 : 2);
  if (amount > 0 && amount < 0.00005) num = '<0.0001';
  if (currency === 'USD') return num.startsWith('<') ? `<$${num.slice(1)}` : `$${num}`;
  return `${num} ${currency}`;
}

/** Pretty JSON for <pre>; never throws. */
export function prettyJSON(v: unknown): string {
  if (v === undefined) return '';
  try {
    const s = JSON.stringify(v, null, 2);
    return s === undefined ? String(v) : s;
  } catch {
    return String(v);
  }
}

export interface Segment {
  text: string;
  mark: boolean;
}

/** Splits a search snippet on [[ ]] match markers, for rendering with <mark> as text. */
export function snippetSegments(snippet: string | null | undefined): Segment[] {
  if (!snippet) return [];
  const out: Segment[] = [];
  let rest = snippet;
  while (rest.length > 0) {
    const open = rest.indexOf('[[');
    if (open < 0) {
      out.push({ text: rest, mark: false });
      break;
    }
    const close = rest.indexOf(']]', open + 2);
    if (close < 0) {
      out.push({ text: rest, mark: false });
      break;
    }
    if (open > 0) out.push({ text: rest.slice(0, open), mark: false });
    if (close > open + 2) out.push({ text: rest.slice(open + 2, close), mark: true });
    rest = rest.slice(close + 2);
  }
  return out;
}

export interface TitlePart {
  text: string;
  code: boolean;
}

/**
 * Splits a tool call's title on Markdown code spans, as agents write them (the Claude Code
 * adapter titles a shell command "`npm test`", with inner backticks escaped as \`), for rendering
 * the code parts in <code>, as text. A backtick without a closing one stays as it is.
 */
export function titleParts(title: string | null | undefined): TitlePart[] {
  if (!title) return [];
  const out: TitlePart[] = [];
  let text = '';
  let code = false;
  const flush = () => {
    if (text) out.push({ text, code });
    text = '';
  };
  // Whether an unescaped backtick follows position i.
  const closes = (i: number) => {
    for (let j = i; j < title.length; j++) {
      if (title[j] === '\\' && title[j + 1] === '`') j++;
      else if (title[j] === '`') return true;
    }
    return false;
  };
  for (let i = 0; i < title.length; i++) {
    const c = title[i];
    if (c === '\\' && title[i + 1] === '`') {
      text += '`';
      i++;
    } else if (c === '`' && (code || closes(i + 1))) {
      flush();
      code = !code;
    } else {
      text += c;
    }
  }
  flush();
  return out;
}

/** Last `max` characters of a log, cut at a line start. */
export function tail(text: string | null | undefined, max = 4000): string {
  if (!text) return '';
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const nl = cut.indexOf('\n');
  return nl >= 0 && nl < 200 ? cut.slice(nl + 1) : cut;
}

/** The time of day of a unix-ms instant in the user's locale, e.g. "14:05". */
export function formatClockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
