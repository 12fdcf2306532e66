import { describe, expect, it } from 'vitest';
import { basename, compactNumber, formatCost, formatDuration, formatSpan, relativeTime, snippetSegments, tail, titleParts } from './format';

describe('format helpers', () => {
  it('basename', () => {
    expect(basename('/home/me/project/')).toBe('project');
    expect(basename('C:\\src\\app')).toBe('app');
    expect(basename('/')).toBe('/');
    expect(basename('')).toBe('');
  });

  it('snippetSegments splits on [[ ]] without interpreting HTML', () => {
    expect(snippetSegments('run [[go test]] <b>now</b> [[x]]')).toEqual([
      { text: 'run ', mark: false },
      { text: 'go test', mark: true },
      { text: ' <b>now</b> ', mark: false },
      { text: 'x', mark: true },
    ]);
    expect(snippetSegments('unbalanced [[ here')).toEqual([{ text: 'unbalanced [[ here', mark: false }]);
  });

  it('relativeTime', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(relativeTime('2026-03-10T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-03-10T11:55:00Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-03-10T09:00:00Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-03-09T11:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('garbage', now)).toBe('');
  });

  it('durations and numbers', () => {
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatSpan(0)).toBe('0 s');
    expect(formatSpan(40)).toBe('<0.1 s');
    expect(formatSpan(420)).toBe('0.4 s');
    expect(formatSpan(3_250)).toBe('3.3 s');
    expect(formatSpan(12_400)).toBe('12 s');
    expect(formatDuration(64_000)).toBe('1 min 04 s');
    expect(compactNumber(1735)).toBe('1.7k');
    expect(compactNumber(200_000)).toBe('200k');
    expect(tail('a\nb\nc', 100)).toBe('a\nb\nc');
  });
});

describe('titleParts', () => {
  it('splits code spans out of a tool title, escaped backticks included', () => {
    expect(titleParts('`npm test`')).toEqual([{ text: 'npm test', code: true }]);
    expect(titleParts('Edit `src/main.go`')).toEqual([
      { text: 'Edit ', code: false },
      { text: 'src/main.go', code: true },
    ]);
    expect(titleParts('`echo \\`date\\``')).toEqual([{ text: 'echo `date`', code: true }]);
    expect(titleParts('Find `src` `*.ts`')).toEqual([
      { text: 'Find ', code: false },
      { text: 'src', code: true },
      { text: ' ', code: false },
      { text: '*.ts', code: true },
    ]);
  });

  it('leaves a lone backtick, and HTML, as text', () => {
    expect(titleParts('it`s <b>bold</b>')).toEqual([{ text: 'it`s <b>bold</b>', code: false }]);
    expect(titleParts('')).toEqual([]);
    expect(titleParts(null)).toEqual([]);
  });
});

describe('formatCost', () => {
  it('words a cost as the Go receipts do (receipt.CostText): never "$0.0000"', () => {
    expect(formatCost({ amount: 0.0042, currency: 'USD' })).toBe('$0.0042');
    expect(formatCost({ amount: 1.5, currency: 'USD' })).toBe('$1.50');
    expect(formatCost({ amount: 0, currency: 'USD' })).toBe('$0.00');
    expect(formatCost({ amount: 0.00001, currency: 'USD' })).toBe('<$0.0001');
    expect(formatCost({ amount: 0.75, currency: 'EUR' })).toBe('0.7500 EUR');
    expect(formatCost({ amount: 12, currency: 'EUR' })).toBe('12.00 EUR');
    expect(formatCost(null)).toBe('');
  });
});
