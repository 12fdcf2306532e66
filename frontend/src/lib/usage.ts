// The usage view's data shaping, free of the DOM and of chart.js: the ranges it offers, the
// per-day series (every day of the range, zeros included), the breakdowns (top rows and
// "Other"), and the theme colours read from CSS variables. Labels come from the history (agent
// names, folders, titles): they are data, cleaned to one plain line here and drawn as text.

import type { UsageBy, UsageReport } from './api';
import { basename, compactNumber, formatCost, formatSpan } from './format';

export type UsageRow = UsageReport['rows'][number];

/** The ranges the view offers: the `since` of UsageLedger, and its button's label. */
export const USAGE_RANGES: readonly { since: string; label: string }[] = [
  { since: '7d', label: '7 days' },
  { since: '30d', label: '30 days' },
  { since: '90d', label: '90 days' },
  { since: 'all', label: 'All' },
];

/** The groupings the view shows, in order. */
export const USAGE_BREAKDOWNS: readonly { by: Exclude<UsageBy, 'day'>; title: string }[] = [
  { by: 'agent', title: 'Per agent' },
  { by: 'project', title: 'Per project' },
  { by: 'session', title: 'Per session' },
];

/** A label as one plain line of at most max characters: control characters dropped, "(none)" for empty. */
export function cleanLabel(s: string | null | undefined, max = 60): string {
  const one = (s ?? '').replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').trim();
  if (!one) return '(none)';
  return one.length > max ? one.slice(0, max - 1) + '…' : one;
}

/** What a breakdown row is called: the folder's name for a project, the title for a session. */
export function rowLabel(by: UsageBy, r: UsageRow): string {
  if (by === 'project') return cleanLabel(basename(r.key) || r.key);
  return cleanLabel(r.label || r.key);
}

/** The series of the per-day chart. */
export interface DailySeries {
  days: string[]; // 2006-01-02, oldest first
  tokens: number[];
  turns: number[];
  minutes: number[];
  /** One series per currency reported in the range. */
  costs: { currency: string; values: number[] }[];
}

/** A local date as 2006-01-02. */
export function dayKey(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/**
 * Shapes a per-day report into series with every day from the range's start (since, an RFC
 * 3339 time; "" for all: the first day reported) to today, days without turns as zeros.
 */
export function dailySeries(report: UsageReport, now: Date): DailySeries {
  const byDay = new Map(report.rows.map((r) => [r.key, r]));
  const first = report.since ? new Date(report.since) : report.rows.length ? parseDay(report.rows[0].key) : now;
  const days: string[] = [];
  const end = dayKey(now);
  const d = new Date(first.getFullYear(), first.getMonth(), first.getDate());
  for (let i = 0; i < 3660 && dayKey(d) <= end; i++, d.setDate(d.getDate() + 1)) days.push(dayKey(d));
  for (const r of report.rows) if (!days.includes(r.key)) days.push(r.key); // a clock set back
  days.sort();
  const currencies = [...new Set(report.rows.flatMap((r) => r.costs.map((c) => c.currency)))].sort();
  return {
    days,
    tokens: days.map((k) => byDay.get(k)?.tokensTotal ?? 0),
    turns: days.map((k) => byDay.get(k)?.turns ?? 0),
    minutes: days.map((k) => Math.round((byDay.get(k)?.wallMs ?? 0) / 6000) / 10),
    costs: currencies.map((currency) => ({
      currency,
      values: days.map((k) => byDay.get(k)?.costs.find((c) => c.currency === currency)?.amount ?? 0),
    })),
  };
}

function parseDay(key: string): Date {
  const [y, m, d] = key.split('-').map(Number);
  return new Date(y, (m || 1) - 1, d || 1);
}

/** One line of a breakdown table. */
export interface BreakdownLine {
  key: string;
  label: string;
  /** The full label, for a title attribute. */
  title: string;
  agent: string;
  turns: number;
  time: string;
  tokens: string;
  cost: string;
  /** The agent reported neither tokens nor cost for any of these turns. */
  silent: boolean;
}

/** The rows of a breakdown, most tokens first, at most limit (the rest summed as "Other"). */
export function breakdown(report: UsageReport, limit = 12): BreakdownLine[] {
  const by = report.by as UsageBy;
  const rows = report.rows.slice(0, limit);
  const rest = report.rows.slice(limit);
  const lines = rows.map((r) => line(r, rowLabel(by, r), cleanLabel(by === 'project' ? r.key : r.label, 400)));
  if (rest.length) {
    const other: UsageRow = { key: '\u0000other', label: '', turns: 0, wallMs: 0, reported: 0, tokensIn: 0, tokensOut: 0, tokensTotal: 0, costs: [] };
    for (const r of rest) {
      other.turns += r.turns;
      other.wallMs += r.wallMs;
      other.reported += r.reported;
      other.tokensTotal += r.tokensTotal;
      for (const c of r.costs) {
        const had = other.costs.find((x) => x.currency === c.currency);
        if (had) had.amount += c.amount;
        else other.costs.push({ ...c });
      }
    }
    lines.push(line(other, `Other (${rest.length})`, `${rest.length} more`));
  }
  return lines;
}

function line(r: UsageRow, label: string, title: string): BreakdownLine {
  return {
    key: r.key,
    label,
    title,
    agent: cleanLabel(r.agent ?? '', 40),
    turns: r.turns,
    time: formatSpan(r.wallMs),
    tokens: r.reported ? compactNumber(r.tokensTotal) : '–',
    cost: costText(r.costs),
    silent: r.reported === 0,
  };
}

/** Costs in several currencies on one line ("–" when none). */
export function costText(costs: readonly { currency: string; amount: number }[]): string {
  return costs.length ? costs.map((c) => formatCost(c)).join(' + ') : '–';
}

/** The note about agents that report nothing, or "" when every agent reported something. */
export function silentNote(silent: readonly string[]): string {
  if (!silent.length) return '';
  const names = silent.map((s) => cleanLabel(s, 40));
  return `${names.join(', ')} ${names.length === 1 ? 'reports' : 'report'} no tokens or cost: counted by turns and time only.`;
}

/** The chart colours of the current theme. */
export interface ChartTheme {
  text: string;
  grid: string;
  tokens: string;
  turns: string;
  cost: string[];
}

/** Reads the chart colours from the page's CSS variables (getComputedStyle of the root). */
export function chartTheme(style: Pick<CSSStyleDeclaration, 'getPropertyValue'>): ChartTheme {
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--text-2', '#55575f'),
    grid: v('--border-subtle', '#ececf0'),
    tokens: v('--accent', '#5e5ce6'),
    turns: v('--blue', '#2563d4'),
    cost: [v('--green-solid', '#1f8a4c'), v('--amber', '#d08a12'), v('--red-solid', '#d23a3f')],
  };
}
