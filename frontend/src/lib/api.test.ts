import { describe, expect, it } from 'vitest';
import { app } from '../test/harness';
import * as api from './api';

// lib/api re-exports the generated bindings; these pin what it adds by hand.
describe('api', () => {
  it('gives [] for a list Go sent as null (a nil slice), at the top and in the fields named', async () => {
    app.ListLive.mockResolvedValueOnce(null as never);
    expect(await api.ListLive()).toEqual([]);
    app.ListRegistry.mockResolvedValueOnce({ items: null, origin: 'cache', offline: true, note: '', fetchedAt: '', platform: 'x' } as never);
    const l = await api.ListRegistry();
    expect(l.items).toEqual([]);
    expect(l.origin).toBe('cache');
    app.AttachDropped.mockResolvedValueOnce({ files: null, problems: ['it is a folder'] } as never);
    expect(await api.AttachDropped('s1', ['/x'])).toEqual({ files: [], problems: ['it is a folder'] });
  });

  it('passes a verb its arguments and calls the double in place at the time of the call', async () => {
    app.ListFolderFiles.mockResolvedValueOnce([{ path: 'a.go', name: 'a.go', size: 1 }]);
    expect(await api.ListFolderFiles('s1', 'a')).toEqual([{ path: 'a.go', name: 'a.go', size: 1 }]);
    expect(app.ListFolderFiles).toHaveBeenLastCalledWith('s1', 'a');
  });

  it('names the Rules verbs by what they act on, and encodes a config value as JSON', async () => {
    await api.DeleteRule('r1');
    expect(app.Delete).toHaveBeenLastCalledWith('r1');
    await api.SetRulesPaused(true);
    expect(app.SetPaused).toHaveBeenLastCalledWith(true);
    app.List.mockResolvedValueOnce({ paused: true, rules: null } as never);
    expect(await api.ListRules()).toEqual({ paused: true, rules: [] });
    await api.SetConfigOption('s1', 'fast', false);
    expect(app.SetConfigOption).toHaveBeenLastCalledWith('s1', 'fast', 'false');
  });
});
