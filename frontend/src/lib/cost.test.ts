import { describe, expect, it } from 'vitest';
import type { Entry } from './protocol';
import { CostTally } from './cost';

const usage = (id: string, amount?: number, currency = 'USD'): Entry => ({
  id,
  kind: 'usage',
  turn: 1,
  usage: { used: 1, size: 10, cost: amount === undefined ? null : { amount, currency } },
});
const boundary = (id: string): Entry => ({ id, kind: 'boundary', turn: 2, boundary: { kind: 'summarised' } });
const user = (id: string): Entry => ({ id, kind: 'user', turn: 1, text: 'hi' });

describe('CostTally', () => {
  it('is nothing until the agent reports a cost', () => {
    const t = new CostTally();
    expect(t.feed([user('e1'), usage('e2')])).toBeNull();
  });

  it('takes the agent session running total as it is, reading an entry changed in place', () => {
    const t = new CostTally();
    const entries = [user('e1'), usage('e2', 0.1)];
    expect(t.feed(entries)?.amount).toBeCloseTo(0.1);
    entries[1] = usage('e2', 0.25);
    expect(t.feed(entries)?.amount).toBeCloseTo(0.25);
    entries.push(user('e3'), usage('e4', 0.4));
    expect(t.feed(entries)?.amount).toBeCloseTo(0.4);
  });

  it('adds up the agent sessions a continued session went through', () => {
    const t = new CostTally();
    const entries = [user('e1'), usage('e2', 0.5), boundary('e3'), user('e4')];
    expect(t.feed(entries)).toEqual({ amount: 0.5, currency: 'USD' });
    entries.push(usage('e5', 0.2));
    expect(t.feed(entries)?.amount).toBeCloseTo(0.7);
  });

  it('never adds two currencies: the latest report stands alone', () => {
    const t = new CostTally();
    expect(t.feed([usage('e1', 1, 'USD'), boundary('e2'), usage('e3', 2, 'EUR')])).toEqual({ amount: 2, currency: 'EUR' });
  });

  it('starts over for a different, shorter transcript', () => {
    const t = new CostTally();
    t.feed([usage('e1', 5), boundary('e2'), usage('e3', 1)]);
    expect(t.feed([usage('e1', 0.3)])).toEqual({ amount: 0.3, currency: 'USD' });
  });
});
