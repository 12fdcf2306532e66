// The Registry view (issue 19): opened from the Agents dialog, it lists the registry's agents with
// what is installed of each; Install shows the install's progress and then the installed version
// (the picker reads its list again); Update, Roll back and Uninstall (after a confirm) call the
// service; a failure shows on its row; offline, a banner says the list is the snapshot and of
// which date. A started registry agent's version is in the session header.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RegistryListing } from '../../lib/api';
import { app, emit, ev, runtime, settle } from '../../test/harness';
import { AGENTS, FOLDER, emptySnapshot, registryItem } from '../../test/mocks';
import { resetPage, startSession } from '../../test/page';

let clock: ReturnType<typeof resetPage>;

function listing(extra: Partial<RegistryListing> = {}): RegistryListing {
  return {
    origin: 'network',
    offline: false,
    note: '',
    fetchedAt: '2026-12-01T10:00:00Z',
    platform: 'linux-x86_64',
    items: [
      registryItem({ id: 'gemini', name: 'Gemini CLI', version: '0.37.1', source: '@google/gemini-cli@0.37.1' }),
      registryItem({ id: 'goose', name: 'goose', version: '1.50.1', kind: 'binary', verified: true, source: 'https://example.com/goose.tar.bz2',
        installed: '1.49.0', previous: '1.48.0' }),
      registryItem({ id: 'pyonly', name: 'Python only', kind: '', source: '' }),
    ],
    ...extra,
  };
}

beforeEach(() => {
  clock = resetPage();
  app.ListRegistry.mockImplementation(async () => listing());
});
afterEach(() => cleanup());

async function open() {
  await startSession(clock);
  await fireEvent.click(screen.getByTestId('agents-manage'));
  await fireEvent.click(await screen.findByTestId('agent-registry'));
  await waitFor(() => expect(screen.getAllByTestId('registry-item')).toHaveLength(3));
  expect(screen.queryByTestId('agent-editor')).toBeNull(); // the dialog closed for the view
  return screen.getByTestId('registry-view');
}

function row(id: string): HTMLElement {
  return screen.getAllByTestId('registry-item').find((el) => el.dataset.id === id)!;
}

/** Delivers an install's progress step, as the Go side emits it. */
function progress(id: string, step: string) {
  const calls = runtime.EventsOn.mock.calls.filter(([name]) => name === 'registry:progress');
  calls[calls.length - 1][1]({ id, step });
  flushSync();
}

describe('registry view', () => {
  it('lists what can be installed, updated and rolled back', async () => {
    await open();
    expect(screen.queryByTestId('registry-offline')).toBeNull();
    expect(screen.getByTestId('registry-summary').textContent?.replace(/\s+/g, ' ')).toContain('3 agents from the ACP registry (as of 2026-12-01), 1 installed');
    const gemini = row('gemini');
    expect(within(gemini).getByTestId('registry-install')).toBeTruthy();
    expect(within(gemini).queryByTestId('registry-uninstall')).toBeNull();
    expect(gemini.textContent).toContain('npm @google/gemini-cli@0.37.1');
    const goose = row('goose');
    expect(within(goose).getByTestId('registry-installed').textContent).toBe('Installed 1.49.0');
    expect(within(goose).getByTestId('registry-update').textContent).toContain('Update to 1.50.1');
    expect(within(goose).getByTestId('registry-rollback').textContent).toContain('Roll back to 1.48.0');
    expect(goose.textContent).toContain('sha256 checked');
    expect(within(row('pyonly')).queryByTestId('registry-install')).toBeNull();
    expect(row('pyonly').textContent).toContain('cannot install it');
  });

  it('installs with progress, then shows the version and refreshes the picker', async () => {
    await open();
    let finish: () => void = () => {};
    app.InstallRegistryAgent.mockImplementation(
      (id: string) => new Promise((resolve) => (finish = () => resolve(registryItem({ id, name: 'Gemini CLI', version: '0.37.1', installed: '0.37.1' })))),
    );
    app.ListAgents.mockImplementation(async () => [...AGENTS, { id: 'registry:gemini', name: 'Gemini CLI', version: '0.37.1', available: true, custom: false }]);
    await fireEvent.click(within(row('gemini')).getByTestId('registry-install'));
    expect(app.InstallRegistryAgent).toHaveBeenCalledWith('gemini');
    expect((within(row('gemini')).getByTestId('registry-install') as HTMLButtonElement).disabled).toBe(true);
    progress('gemini', 'Installing @google/gemini-cli@0.37.1 with npm');
    expect(within(row('gemini')).getByTestId('registry-progress').textContent).toContain('Installing @google/gemini-cli@0.37.1 with npm');
    finish();
    await waitFor(() => expect(within(row('gemini')).getByTestId('registry-installed').textContent).toBe('Installed 0.37.1'));
    expect(within(row('gemini')).queryByTestId('registry-progress')).toBeNull();
    await waitFor(() => expect(screen.getAllByTestId('agent-option').map((o) => o.textContent)).toContain('Gemini CLI 0.37.1'));
  });

  it('shows a refused install on its row, and rolls back and uninstalls', async () => {
    await open();
    app.InstallRegistryAgent.mockImplementation(async () => {
      throw 'refused to install goose 1.50.1: checksum mismatch (the registry says sha256 aa…, the download is bb…)';
    });
    await fireEvent.click(within(row('goose')).getByTestId('registry-update'));
    await waitFor(() => expect(within(row('goose')).getByTestId('registry-error').textContent).toContain('checksum mismatch'));
    expect(within(row('goose')).getByTestId('registry-installed').textContent).toBe('Installed 1.49.0');

    app.RollbackRegistryAgent.mockImplementation(async (id: string) =>
      registryItem({ id, name: 'goose', version: '1.50.1', kind: 'binary', installed: '1.48.0', previous: '1.49.0' }),
    );
    await fireEvent.click(within(row('goose')).getByTestId('registry-rollback'));
    await waitFor(() => expect(within(row('goose')).getByTestId('registry-installed').textContent).toBe('Installed 1.48.0'));
    expect(within(row('goose')).queryByTestId('registry-error')).toBeNull();
    expect(within(row('goose')).getByTestId('registry-rollback').textContent).toContain('Roll back to 1.49.0');

    await fireEvent.click(within(row('goose')).getByTestId('registry-uninstall'));
    expect(app.UninstallRegistryAgent).not.toHaveBeenCalled();
    await fireEvent.click(within(row('goose')).getByTestId('registry-uninstall-confirm'));
    await waitFor(() => expect(app.UninstallRegistryAgent).toHaveBeenCalledWith('goose'));
    await waitFor(() => expect(within(row('goose')).queryByTestId('registry-installed')).toBeNull());
    expect(within(row('goose')).getByTestId('registry-install')).toBeTruthy();
  });

  it('says when it shows the snapshot for want of a network', async () => {
    app.ListRegistry.mockImplementation(async () =>
      listing({ offline: true, origin: 'snapshot', note: 'Offline: showing the snapshot of 2026-12-06 shipped with agentdesk.' }),
    );
    await open();
    const banner = screen.getByTestId('registry-offline');
    expect(banner.dataset.origin).toBe('snapshot');
    expect(banner.textContent).toContain('Offline: showing the snapshot');
    expect(banner.textContent).toContain('snapshot of 2026-12-06');
    expect(screen.getAllByTestId('registry-item')).toHaveLength(3);
  });

  it('shows the installed version of a registry agent in the session header', async () => {
    app.StartSession.mockImplementation(async () => ({ sessionId: 's1', agentId: 'registry:goose', agentName: 'goose', agentVersion: '1.50.1', cwd: FOLDER }));
    app.Snapshot.mockImplementation(async (id: string) => emptySnapshot(id, { agentName: 'goose', agentVersion: '1.50.1' }));
    await startSession(clock);
    emit(ev({ kind: 'state', state: 'idle' }));
    await settle();
    expect(screen.getByTestId('session-agent-version').textContent).toBe('1.50.1');
  });
});
