// The top bar's folders and the sidebar toggle: the folder dialog (folder-browse), the recent
// folders (recent-folder, by mouse and keyboard, the picked agent's own), the question before a
// start in the home folder itself, a saved session filling the form, and Ctrl+B.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import App from './App.svelte';
import type { ManualClock } from './lib/clock';
import { app, settle } from './test/harness';
import { FOLDER } from './test/mocks';
import { historyItem, resetPage } from './test/page';
import { SIDEBAR_KEY } from './state/sidebar.svelte';

let clock: ManualClock;

beforeEach(() => {
  clock = resetPage();
  localStorage.removeItem(SIDEBAR_KEY);
  app.RecentFolders.mockImplementation(async (agentId: string) => [`/src/${agentId}-app`, '/src/shared']);
});

afterEach(() => cleanup());

const cwd = () => screen.getByTestId('cwd-input') as HTMLInputElement;
const recentFolders = () => screen.queryAllByTestId('recent-folder').map((b) => b.dataset.folder);

async function page() {
  render(App, { props: { clock } });
  await waitFor(() => expect(screen.getAllByTestId('agent-option')).toHaveLength(3));
  await waitFor(() => expect(cwd().value).toBe(FOLDER));
  await settle();
}

describe('folders', () => {
  it('fills the field from the folder dialog, started at the folder in it', async () => {
    app.BrowseFolder.mockResolvedValueOnce('/src/chosen');
    await page();
    await fireEvent.click(screen.getByTestId('folder-browse'));
    await settle();
    expect(app.BrowseFolder).toHaveBeenCalledWith(FOLDER);
    expect(cwd().value).toBe('/src/chosen');
  });

  it("lists the picked agent's recent folders, again when the agent changes, and picks one with the mouse", async () => {
    app.ListHistory.mockImplementation(async () => [{ ...historyItem('h1', 'Fix the build'), agentId: 'claude' }]);
    await page();
    await fireEvent.click(screen.getByTestId('recent-folders'));
    expect(recentFolders()).toEqual(['/src/demo-app', '/src/shared']);
    expect(document.activeElement).toBe(screen.getAllByTestId('recent-folder')[0]); // the keyboard is in the list
    await fireEvent.click(screen.getAllByTestId('recent-folder')[1]);
    expect(cwd().value).toBe('/src/shared');
    expect(recentFolders()).toEqual([]); // the list closed

    // Another agent picked (here by opening a saved session of it: happy-dom's <select> does not
    // report a pick to Svelte's binding, which reads the :checked option).
    await waitFor(() => expect(screen.getAllByTestId('history-item')).toHaveLength(1));
    await fireEvent.click(screen.getByTestId('history-item'));
    await settle();
    expect(app.RecentFolders).toHaveBeenLastCalledWith('claude');
    await fireEvent.click(screen.getByTestId('recent-folders'));
    expect(recentFolders()).toEqual(['/src/claude-app', '/src/shared']);
  });

  it('reads the recent folders again as the list opens, and says when there are none yet', async () => {
    app.RecentFolders.mockResolvedValue([]);
    await page();
    await fireEvent.click(screen.getByTestId('recent-folders'));
    await settle();
    expect(screen.getByTestId('recent-folders-empty')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('recent-folders')); // closes
    app.RecentFolders.mockResolvedValue(['/src/new']);
    const calls = app.RecentFolders.mock.calls.length;
    await fireEvent.click(screen.getByTestId('recent-folders'));
    await settle();
    expect(app.RecentFolders).toHaveBeenCalledTimes(calls + 1);
    expect(recentFolders()).toEqual(['/src/new']);
    expect(screen.queryByTestId('recent-folders-empty')).toBeNull();
  });

  it('opens the list with Down in the field and picks with the keys; Escape closes it', async () => {
    await page();
    await fireEvent.keyDown(cwd(), { key: 'ArrowDown' });
    const items = screen.getAllByTestId('recent-folder');
    expect(document.activeElement).toBe(items[0]);
    await fireEvent.keyDown(items[0], { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    await fireEvent.keyDown(items[1], { key: 'Escape' });
    expect(recentFolders()).toEqual([]);
    expect(document.activeElement).toBe(screen.getByTestId('recent-folders'));
    expect(cwd().value).toBe(FOLDER); // nothing picked

    await fireEvent.keyDown(cwd(), { key: 'ArrowDown' });
    await fireEvent.keyDown(screen.getAllByTestId('recent-folder')[0], { key: 'ArrowDown' });
    (document.activeElement as HTMLButtonElement).click(); // Enter on a focused button
    await settle();
    expect(cwd().value).toBe('/src/shared');
    expect(document.activeElement).toBe(cwd());
  });

  it('asks before a start in the home folder: Cancel keeps the form, Start anyway starts there', async () => {
    app.CheckFolder.mockImplementation(async (dir: string) => ({ path: '/home/me', broad: dir === '~' ? 'home' : '' }));
    await page();
    await fireEvent.input(cwd(), { target: { value: '~' } });
    await fireEvent.click(screen.getByTestId('start-session'));
    await settle();
    const dialog = screen.getByTestId('broad-folder-confirm');
    expect(dialog.textContent).toContain('/home/me');
    expect(document.activeElement).toBe(screen.getByTestId('broad-folder-cancel'));
    expect(app.StartSession).not.toHaveBeenCalled();

    await fireEvent.click(screen.getByTestId('broad-folder-cancel'));
    expect(screen.queryByTestId('broad-folder-confirm')).toBeNull();
    expect(cwd().value).toBe('~');
    expect(document.activeElement).toBe(cwd());
    expect(app.StartSession).not.toHaveBeenCalled();

    await fireEvent.keyDown(cwd(), { key: 'Enter' });
    await settle();
    await fireEvent.keyDown(screen.getByTestId('broad-folder-confirm'), { key: 'Escape' });
    expect(screen.queryByTestId('broad-folder-confirm')).toBeNull();
    expect(app.StartSession).not.toHaveBeenCalled();

    await fireEvent.click(screen.getByTestId('start-session'));
    await settle();
    await fireEvent.click(screen.getByTestId('broad-folder-ok'));
    await settle();
    expect(app.StartSession).toHaveBeenCalledWith('demo', '/home/me', [], false, false);
    await waitFor(() => expect(screen.getAllByTestId('live-session')).toHaveLength(1));
  });

  it('fills the agent and the folder of a saved session opened from the history', async () => {
    app.ListHistory.mockImplementation(async () => [{ ...historyItem('h1', 'Fix the build'), agentId: 'claude', agentName: 'Claude Code' }]);
    await page();
    await waitFor(() => expect(screen.getAllByTestId('history-item')).toHaveLength(1));
    await fireEvent.click(screen.getByTestId('history-item'));
    await settle();
    expect((screen.getByTestId('agent-picker') as HTMLSelectElement).value).toBe('claude');
    expect(cwd().value).toBe('/home/me/api');
  });
});

describe('sidebar', () => {
  it('hides and shows with its button and Ctrl+B, remembered', async () => {
    await page();
    const sidebar = screen.getByTestId('sidebar');
    const toggle = screen.getByTestId('sidebar-toggle');
    expect(sidebar.classList.contains('collapsed')).toBe(false);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await fireEvent.click(toggle);
    expect(sidebar.classList.contains('collapsed')).toBe(true);
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(localStorage.getItem(SIDEBAR_KEY)).toBe('closed');
    await fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(sidebar.classList.contains('collapsed')).toBe(false);
    expect(localStorage.getItem(SIDEBAR_KEY)).toBe('open');

    localStorage.setItem(SIDEBAR_KEY, 'closed');
    cleanup();
    await page();
    expect(screen.getByTestId('sidebar').classList.contains('collapsed')).toBe(true);
  });

  it('opens when collapsed for Ctrl+K, and the search has the focus', async () => {
    localStorage.setItem(SIDEBAR_KEY, 'closed');
    await page();
    const sidebar = screen.getByTestId('sidebar');
    expect(sidebar.classList.contains('collapsed')).toBe(true);
    expect(screen.getByText(/Ctrl\+B shows it/)).toBeTruthy();
    await fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('history-search')));
    expect(sidebar.classList.contains('collapsed')).toBe(false);
  });
});
