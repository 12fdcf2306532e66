import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { AgentInfo } from '../lib/protocol';
import { app } from '../test/harness';
import { FOLDER } from '../test/mocks';
import { Launcher } from './launcher.svelte';

const AGENTS: AgentInfo[] = [
  { id: 'off', name: 'Off', available: false, custom: false },
  { id: 'plain', name: 'Plain', available: true, custom: false },
  { id: 'acme', name: 'Acme', available: true, custom: true, folder: '/src/acme' },
];

let errors: string[];
let started: string[];
let launcher: Launcher;

beforeEach(() => {
  vi.clearAllMocks();
  app.ListAgents.mockResolvedValue(AGENTS);
  errors = [];
  started = [];
  launcher = new Launcher({ onError: (m) => errors.push(m), onStarted: async (info) => void started.push(info.sessionId) });
});

describe('Launcher', () => {
  it('picks the first available agent, keeps a pick still listed, and lists the custom ones', async () => {
    await launcher.load();
    expect(launcher.agentId).toBe('plain');
    expect(launcher.custom.map((a) => a.id)).toEqual(['acme']);
    launcher.agentId = 'off';
    await launcher.load();
    expect(launcher.agentId).toBe('off');
    await launcher.load(AGENTS[2]);
    expect(launcher.agentId).toBe('acme');
  });

  it("puts a picked agent's default folder in the field, once per pick, and the default folder only in an empty field", async () => {
    await launcher.load();
    await launcher.loadDefaultFolder();
    expect(launcher.cwd).toBe(FOLDER);
    launcher.agentId = 'acme';
    expect(launcher.cwd).toBe('/src/acme');
    launcher.cwd = '/src/acme/sub';
    await launcher.load(); // the same agent again: the edit stays
    expect(launcher.cwd).toBe('/src/acme/sub');
    await launcher.loadDefaultFolder();
    expect(launcher.cwd).toBe('/src/acme/sub');
  });

  it('starts the picked agent in the trimmed folder, one start at a time; a failure is reported', async () => {
    await launcher.load();
    launcher.cwd = '  /p  ';
    const first = launcher.start();
    expect(launcher.starting).toBe(true);
    await launcher.start(); // ignored while the first is in flight
    await first;
    expect(app.StartSession).toHaveBeenCalledTimes(1);
    expect(app.StartSession).toHaveBeenCalledWith('plain', '/p', [], false, false);
    expect(started).toEqual(['s1']);
    expect(launcher.starting).toBe(false);

    app.StartSession.mockRejectedValueOnce('agent not found');
    await launcher.start();
    expect(errors).toEqual(['agent not found']);
    expect(launcher.starting).toBe(false);
  });

  it('lists the recent folders for the picked agent, again when the pick changes and after a start', async () => {
    app.RecentFolders.mockImplementation(async (agentId: string) => [`/src/${agentId}`, '/src/other']);
    await launcher.load();
    await vi.waitFor(() => expect(launcher.recent).toEqual(['/src/plain', '/src/other']));
    launcher.agentId = 'acme';
    await vi.waitFor(() => expect(launcher.recent).toEqual(['/src/acme', '/src/other']));
    const calls = app.RecentFolders.mock.calls.length;
    launcher.agentId = 'acme'; // the same pick: nothing to reload
    expect(app.RecentFolders).toHaveBeenCalledTimes(calls);
    await launcher.start();
    expect(app.RecentFolders).toHaveBeenCalledTimes(calls + 1);
  });

  it('drops a list that answers after a later one', async () => {
    let answerFirst: (v: string[]) => void = () => {};
    app.RecentFolders.mockImplementationOnce(() => new Promise<string[]>((r) => (answerFirst = r)));
    app.RecentFolders.mockImplementationOnce(async () => ['/new']);
    const first = launcher.loadRecent();
    await launcher.loadRecent();
    answerFirst(['/old']);
    await first;
    expect(launcher.recent).toEqual(['/new']);
  });

  it('puts the folder chosen in the dialog in the field; a cancelled dialog changes nothing', async () => {
    launcher.cwd = '/src/app ';
    app.BrowseFolder.mockResolvedValueOnce('/src/chosen');
    await launcher.browse();
    expect(app.BrowseFolder).toHaveBeenCalledWith('/src/app');
    expect(launcher.cwd).toBe('/src/chosen');
    app.BrowseFolder.mockResolvedValueOnce('');
    await launcher.browse();
    expect(launcher.cwd).toBe('/src/chosen');
  });

  it('holds a start in the home folder until it is confirmed; a dismissal keeps the form', async () => {
    await launcher.load();
    launcher.cwd = '~';
    app.CheckFolder.mockResolvedValue({ path: '/home/me', broad: 'home' });
    await launcher.start();
    expect(launcher.broad).toEqual({ path: '/home/me', broad: 'home' });
    expect(launcher.starting).toBe(false);
    expect(app.StartSession).not.toHaveBeenCalled();
    await launcher.start(); // held: a second Start does not ask twice
    expect(app.CheckFolder).toHaveBeenCalledTimes(1);

    launcher.dismissBroad();
    expect(launcher.broad).toBeNull();
    expect(launcher.cwd).toBe('~');
    expect(app.StartSession).not.toHaveBeenCalled();

    await launcher.start();
    await launcher.confirmBroad();
    expect(launcher.broad).toBeNull();
    expect(app.StartSession).toHaveBeenCalledWith('plain', '/home/me', [], false, false);
    expect(started).toEqual(['s1']);
  });

  it('reports a folder that does not exist without starting', async () => {
    await launcher.load();
    launcher.cwd = '/gone';
    app.CheckFolder.mockRejectedValueOnce('folder "/gone" does not exist: choose an existing project folder');
    await launcher.start();
    expect(errors).toEqual(['folder "/gone" does not exist: choose an existing project folder']);
    expect(app.StartSession).not.toHaveBeenCalled();
    expect(launcher.starting).toBe(false);
  });

  it("fills the form from a saved session: its agent by id, else by name, and its folder", async () => {
    await launcher.load();
    launcher.fill({ agentId: 'acme', agentName: 'Acme', cwd: '/src/acme/api' });
    expect(launcher.agentId).toBe('acme');
    expect(launcher.cwd).toBe('/src/acme/api');
    launcher.fill({ agentName: 'Plain', cwd: '/src/old' }); // saved before agent ids were listed
    expect(launcher.agentId).toBe('plain');
    expect(launcher.cwd).toBe('/src/old');
    launcher.fill({ agentId: 'gone', agentName: 'Gone', cwd: '/src/gone' }); // an agent no longer listed: the folder still
    expect(launcher.agentId).toBe('plain');
    expect(launcher.cwd).toBe('/src/gone');
  });

  it('holds the start of a preset not installed until the person agrees, installs it, then starts it', async () => {
    const gemini: AgentInfo = { id: 'gemini', name: 'Gemini CLI', available: false, custom: false,
      preset: { package: '@google/gemini-cli', pinned: '0.61.0', installable: true, ownFound: '/usr/bin/gemini' } };
    app.ListAgents.mockResolvedValue([...AGENTS, gemini]);
    app.CheckFolder.mockImplementation(async (cwd: string) => ({ path: cwd, broad: '' })); // an earlier test's answer stays otherwise
    await launcher.load();
    launcher.agentId = 'gemini';
    launcher.cwd = '/p';
    await launcher.start();
    expect(launcher.install?.id).toBe('gemini');
    expect(app.InstallPreset).not.toHaveBeenCalled(); // nothing installed without a yes
    expect(app.StartSession).not.toHaveBeenCalled();
    launcher.dismissInstall();
    expect(launcher.install).toBeNull();

    await launcher.start();
    app.ListAgents.mockResolvedValue([...AGENTS, { ...gemini, available: true, version: '0.61.0', preset: { pinned: '0.61.0' } }]);
    await launcher.confirmInstall();
    expect(errors).toEqual([]);
    expect(app.InstallPreset).toHaveBeenCalledWith('gemini');
    expect(app.StartSession).toHaveBeenCalledWith('gemini', '/p', [], false, false);
    expect(launcher.install).toBeNull();
  });

  it("keeps an install's failure in the held start, and starts the person's own command when chosen", async () => {
    const gemini: AgentInfo = { id: 'gemini', name: 'Gemini CLI', available: false, custom: false,
      preset: { package: '@google/gemini-cli', pinned: '0.61.0', installable: true, ownFound: '/usr/bin/gemini' } };
    app.ListAgents.mockResolvedValue([...AGENTS, gemini]);
    app.InstallPreset.mockRejectedValueOnce('npm could not install @google/gemini-cli@0.61.0');
    await launcher.load();
    launcher.agentId = 'gemini';
    launcher.cwd = '/p';
    await launcher.start();
    await launcher.confirmInstall();
    expect(launcher.installError).toContain('npm could not install');
    expect(launcher.install?.id).toBe('gemini');
    app.ListAgents.mockResolvedValue([...AGENTS, { ...gemini, available: true, preset: { own: true, overridden: true } }]);
    await launcher.useOwn();
    expect(app.SavePresetOverride).toHaveBeenCalledWith(expect.objectContaining({ id: 'gemini', command: '/usr/bin/gemini' }));
    expect(app.StartSession).toHaveBeenCalledWith('gemini', '/p', [], false, false);
  });
});
