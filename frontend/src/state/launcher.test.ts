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
    expect(app.StartSession).toHaveBeenCalledWith('plain', '/p');
    expect(started).toEqual(['s1']);
    expect(launcher.starting).toBe(false);

    app.StartSession.mockRejectedValueOnce('agent not found');
    await launcher.start();
    expect(errors).toEqual(['agent not found']);
    expect(launcher.starting).toBe(false);
  });
});
