import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { Attachment } from '../lib/protocol';
import { app } from '../test/harness';
import { SessionActions } from './session-actions';

let live: string | null;
let errors: string[];
let actions: SessionActions;

beforeEach(() => {
  vi.clearAllMocks();
  live = 's1';
  errors = [];
  actions = new SessionActions({ sessionId: () => live, onError: (m) => errors.push(m) });
});

describe('SessionActions.run', () => {
  it("calls with the live session's id as it is at the call", async () => {
    const call = vi.fn(async (id: string) => `got ${id}`);
    expect(await actions.run(call)).toBe('got s1');
    live = 's2';
    expect(await actions.run(call)).toBe('got s2');
  });

  it('calls nothing without a live session, whatever the failure mode', async () => {
    live = null;
    const call = vi.fn(async () => 1);
    expect(await actions.run(call)).toBeUndefined();
    expect(await actions.run(call, 'rethrow')).toBeUndefined();
    expect(await actions.run(call, 'reject')).toBeUndefined();
    expect(call).not.toHaveBeenCalled();
  });

  it('report: the failure goes to the sink once, worded, and it resolves undefined', async () => {
    expect(await actions.run(() => Promise.reject('the agent is gone'))).toBeUndefined();
    expect(errors).toEqual(['the agent is gone']);
  });

  it('rethrow: reported, then the caller hears of it too', async () => {
    const err = new Error('refused');
    await expect(actions.run(() => Promise.reject(err), 'rethrow')).rejects.toBe(err);
    expect(errors).toEqual(['refused']);
  });

  it('reject: not reported; the caller gets the words to show', async () => {
    await expect(actions.run(() => Promise.reject('no such folder'), 'reject')).rejects.toThrow('no such folder');
    expect(errors).toEqual([]);
  });
});

describe('the actions', () => {
  it('send: a plain prompt, or one with attachments; false when it failed (reported)', async () => {
    expect(await actions.send('hi', [])).toBe(true);
    expect(app.Prompt).toHaveBeenCalledWith('s1', 'hi');
    const files: Attachment[] = [{ kind: 'file', name: 'a.md', path: 'a.md' }];
    expect(await actions.send('with', files)).toBe(true);
    expect(app.PromptWith).toHaveBeenCalledWith('s1', 'with', files);
    app.Prompt.mockRejectedValueOnce('busy');
    expect(await actions.send('again', [])).toBe(false);
    expect(errors).toEqual(['busy']);
    live = null;
    expect(await actions.send('nobody', [])).toBe(false);
  });

  it('stop, hard stop and continue report their failures', async () => {
    app.Stop.mockRejectedValueOnce('stop failed');
    app.HardStop.mockRejectedValueOnce('kill failed');
    actions.stop();
    actions.hardStop();
    await actions.continueSession();
    await vi.waitFor(() => expect(errors).toEqual(['stop failed', 'kill failed']));
    expect(app.Stop).toHaveBeenCalledWith('s1');
    expect(app.HardStop).toHaveBeenCalledWith('s1');
    expect(app.ContinueSession).toHaveBeenCalledWith('s1');
  });

  it('answer and the pickers reject after reporting, so their control reverts', async () => {
    app.AnswerPermission.mockRejectedValueOnce('too late');
    await expect(actions.answer('r1', 'allow')).rejects.toBe('too late');
    app.SetMode.mockRejectedValueOnce('no such mode');
    await expect(actions.setMode('x')).rejects.toBe('no such mode');
    expect(errors).toEqual(['too late', 'no such mode']);
    await actions.setModel('m');
    await actions.setConfig('thinking', true);
    expect(app.SetModel).toHaveBeenCalledWith('s1', 'm');
    expect(app.SetConfigOption).toHaveBeenCalledWith('s1', 'thinking', 'true');
  });

  it("listFiles: the folder's files, none without a session, the words of a failure for the picker", async () => {
    const files = [{ path: 'a.md', name: 'a.md', size: 1 }];
    app.ListFolderFiles.mockResolvedValueOnce(files);
    expect(await actions.listFiles('a')).toEqual(files);
    app.ListFolderFiles.mockRejectedValueOnce('outside the folder');
    await expect(actions.listFiles('..')).rejects.toThrow('outside the folder');
    live = null;
    expect(await actions.listFiles('a')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
