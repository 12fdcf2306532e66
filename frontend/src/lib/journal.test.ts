import { describe, expect, it } from 'vitest';
import { clockTime, journalRows, prettyJSON } from './journal';

const at = '2026-03-10T12:00:01.250Z';

describe('journalRows', () => {
  it('labels requests, notifications, responses (with what they answer) and errors', () => {
    const rows = journalRows([
      { direction: 'out', method: 'initialize', json: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}', at },
      { direction: 'in', json: '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}', at },
      { direction: 'in', method: 'session/update', json: '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call"}}}', at },
      { direction: 'in', method: 'session/request_permission', json: '{"jsonrpc":"2.0","id":"p1","method":"session/request_permission"}', at },
      { direction: 'out', json: '{"jsonrpc":"2.0","id":"p1","result":{"outcome":{"outcome":"cancelled"}}}', at },
      { direction: 'out', json: '{"jsonrpc":"2.0","id":5,"method":"session/prompt"}', at },
      { direction: 'in', json: '{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"boom"}}', at },
      { direction: 'in', json: 'not json', at: 'whenever' },
    ]);
    expect(rows.map((r) => [r.direction, r.kind, r.label, r.answers ?? '', r.id])).toEqual([
      ['out', 'request', 'initialize', '', '0'],
      ['in', 'response', 'response', 'initialize', '0'],
      ['in', 'notification', 'session/update', '', ''],
      ['in', 'request', 'session/request_permission', '', 'p1'],
      ['out', 'response', 'response', 'session/request_permission', 'p1'],
      ['out', 'request', 'session/prompt', '', '5'],
      ['in', 'error', 'error', 'session/prompt', '5'],
      ['in', 'other', 'message', '', ''],
    ]);
    expect(rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(rows.map((r) => r.detail ?? '')).toEqual(['', '', 'tool_call', '', '', '', '', '']);
    expect(rows[7].time).toBe('whenever');
    expect(journalRows(null)).toEqual([]);
  });

  it('formats times as local HH:MM:SS.mmm', () => {
    const d = new Date(at);
    const expected = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:01.250`;
    expect(clockTime(at)).toBe(expected);
  });

  it('pretty-prints JSON and leaves anything else alone', () => {
    expect(prettyJSON('{"a":[1,{"b":"<i>x</i>"}]}')).toBe('{\n  "a": [\n    1,\n    {\n      "b": "<i>x</i>"\n    }\n  ]\n}');
    expect(prettyJSON('{oops')).toBe('{oops');
  });

  it('shortens long strings, such as a pasted image, and keeps the rest of the message', () => {
    const data = 'iVBORw0KGgo' + 'A'.repeat(2_000_000);
    const shown = prettyJSON(JSON.stringify({ method: 'session/prompt', params: { prompt: [{ type: 'image', mimeType: 'image/png', data }] } }));
    expect(shown.length).toBeLessThan(1_000);
    expect(shown).toContain('"mimeType": "image/png"');
    expect(shown).toContain('"data": "iVBORw0KGgoAAA');
    expect(shown).toContain('[1,999,811 more characters not shown]');
    expect(prettyJSON('{"text":"short"}')).toBe('{\n  "text": "short"\n}');
    expect(prettyJSON('not json ' + 'x'.repeat(10_000)).length).toBeLessThan(1_000);
  });
});
