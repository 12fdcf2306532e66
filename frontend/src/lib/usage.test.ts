import { describe, expect, it } from 'vitest';
import type { UsageReport } from './api';
import { breakdown, chartTheme, cleanLabel, costText, dailySeries, dayKey, rowLabel, silentNote, type UsageRow } from './usage';

function row(key: string, extra: Partial<UsageRow> = {}): UsageRow {
  return { key, label: key, turns: 1, wallMs: 60_000, reported: 1, tokensIn: 0, tokensOut: 0, tokensTotal: 100, costs: [], ...extra };
}

function report(by: string, rows: UsageRow[], since = ''): UsageReport {
  const total = row('total', { turns: rows.length });
  return { by, since, rows, total, silent: [] } as UsageReport;
}

describe('dailySeries', () => {
  it('fills every day of the range with zeros and one series per currency', () => {
    const now = new Date(2026, 2, 11, 15, 0);
    const since = new Date(2026, 2, 8).toISOString();
    const s = dailySeries(
      report('day', [row('2026-03-09', { tokensTotal: 50, turns: 2, wallMs: 90_000, costs: [{ currency: 'USD', amount: 0.5 }] }), row('2026-03-11', { costs: [{ currency: 'EUR', amount: 1 }] })], since),
      now,
    );
    expect(s.days).toEqual(['2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11']);
    expect(s.tokens).toEqual([0, 50, 0, 100]);
    expect(s.turns).toEqual([0, 2, 0, 1]);
    expect(s.minutes).toEqual([0, 1.5, 0, 1]);
    expect(s.costs).toEqual([
      { currency: 'EUR', values: [0, 0, 0, 1] },
      { currency: 'USD', values: [0, 0.5, 0, 0] },
    ]);
  });

  it('starts at the first reported day for all of the history', () => {
    const s = dailySeries(report('day', [row('2026-03-10')]), new Date(2026, 2, 11));
    expect(s.days).toEqual(['2026-03-10', '2026-03-11']);
    expect(dayKey(new Date(2026, 0, 5))).toBe('2026-01-05');
  });
});

describe('breakdown', () => {
  it('keeps the top rows and sums the rest as Other', () => {
    const rows = Array.from({ length: 5 }, (_, i) => row(`a${i}`, { costs: [{ currency: 'USD', amount: 1 }] }));
    const lines = breakdown(report('agent', rows), 3);
    expect(lines.map((l) => l.label)).toEqual(['a0', 'a1', 'a2', 'Other (2)']);
    expect(lines[3]).toMatchObject({ turns: 2, cost: '$2.00', tokens: '200' });
  });

  it('marks rows whose agent reported nothing and names projects by their folder', () => {
    const lines = breakdown(report('project', [row('/home/me/web', { reported: 0, tokensTotal: 0 })]));
    expect(lines[0]).toMatchObject({ label: 'web', title: '/home/me/web', tokens: '–', cost: '–', silent: true, time: '1 min 00 s' });
  });

  it('keeps labels as one plain line of text', () => {
    expect(cleanLabel('<img src=x onerror=alert(1)>\nnext\u202Eline')).toBe('<img src=x onerror=alert(1)> next line');
    expect(cleanLabel('')).toBe('(none)');
    expect(cleanLabel('x'.repeat(80), 10)).toBe('xxxxxxxxx…');
    expect(rowLabel('session', row('id1', { label: '' }))).toBe('id1');
  });
});

describe('notes and theme', () => {
  it('says which agents report nothing', () => {
    expect(silentNote([])).toBe('');
    expect(silentNote(['Gemini'])).toBe('Gemini reports no tokens or cost: counted by turns and time only.');
    expect(silentNote(['A', 'B'])).toContain('A, B report no tokens');
    expect(costText([{ currency: 'USD', amount: 1.5 }, { currency: 'EUR', amount: 2 }])).toBe('$1.50 + 2.00 EUR');
  });

  it('reads colours from CSS variables, with fallbacks', () => {
    const vars: Record<string, string> = { '--text-2': ' #eee ', '--accent': '#123456' };
    const theme = chartTheme({ getPropertyValue: (n: string) => vars[n] ?? '' });
    expect(theme.text).toBe('#eee');
    expect(theme.tokens).toBe('#123456');
    expect(theme.grid).toBe('#ececf0');
    expect(theme.cost).toHaveLength(3);
  });
});
