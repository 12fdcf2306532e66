// Saving a history item to a file: the row's Save menu (Markdown, JSON or diagnostics), the system's save
// dialog behind SaveHistoryExport (mocked), the "Saved to …" confirmation and errors in the
// banner. Driven through the whole page with mocked bindings (./test/page.ts).
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { ManualClock } from './lib/clock';
import { app, emit, settle } from './test/harness';
import { historyItem, resetPage, startSession, state } from './test/page';

let clock: ManualClock;

beforeEach(() => {
  clock = resetPage();
  app.ListHistory.mockImplementation(async () => [historyItem('h1', 'Fix the build'), historyItem('h2', 'Write the docs')]);
});

afterEach(() => cleanup());

async function ready() {
  await startSession(clock);
  emit(state('idle'));
  await waitFor(() => expect(screen.getAllByTestId('history-item')).toHaveLength(2));
}

function action(testId: string, id: string): HTMLElement {
  const found = screen.getAllByTestId(testId).find((el) => el.dataset.sessionId === id);
  if (!found) throw new Error(`no ${testId} for ${id}`);
  return found;
}

async function openMenu(id: string): Promise<HTMLElement> {
  await fireEvent.click(action('history-save', id));
  await settle();
  return screen.getByRole('menu');
}

describe('save a history item to a file', () => {
  it('saves as Markdown through the save dialog and says where, for a few seconds', async () => {
    await ready();
    const button = action('history-save', 'h1');
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await openMenu('h1');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(action('history-save-md', 'h1'));
    expect(screen.getAllByRole('menuitem').map((el) => el.textContent?.trim())).toEqual(['Save as Markdown…', 'Save as JSON…', 'Save diagnostics…']);

    await fireEvent.click(action('history-save-md', 'h1'));
    await settle();
    expect(app.SaveHistoryExport).toHaveBeenCalledWith('h1', 'md');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    const saved = screen.getByTestId('history-saved');
    expect(saved.getAttribute('role')).toBe('status');
    expect(saved.textContent).toContain('Saved to /home/me/project/h1.md');
    expect(screen.queryByTestId('error-banner')).toBeNull();

    clock.advance(5_000);
    flushSync();
    expect(screen.getByTestId('history-saved')).toBeTruthy();
    clock.advance(2_000);
    flushSync();
    expect(screen.queryByTestId('history-saved')).toBeNull();
  });

  it('works from the keyboard: arrows move through the menu, Esc closes it', async () => {
    await ready();
    const menu = await openMenu('h2');
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(action('history-save-json', 'h2'));
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(action('diagnostics-save', 'h2'));
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(action('history-save-md', 'h2'));
    await fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(action('diagnostics-save', 'h2'));
    await fireEvent.keyDown(menu, { key: 'Escape' });
    await settle();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(action('history-save', 'h2'));
    expect(app.SaveHistoryExport).not.toHaveBeenCalled();

    // Enter on a focused menu item is a click on it.
    await openMenu('h2');
    await fireEvent.keyDown(screen.getByRole('menu'), { key: 'End' });
    await fireEvent.click(document.activeElement!);
    await settle();
    expect(app.SaveHistoryExport).toHaveBeenCalledWith('h2', 'diagnostics');
    expect(screen.getByTestId('history-saved').textContent).toContain('/home/me/project/h2.diagnostics');
  });

  it('a press elsewhere closes the menu without saving', async () => {
    await ready();
    await openMenu('h1');
    await fireEvent.pointerDown(screen.getByTestId('transcript'));
    await settle();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(app.SaveHistoryExport).not.toHaveBeenCalled();
  });

  it('says nothing when the user cancels the dialog', async () => {
    app.SaveHistoryExport.mockImplementation(async () => '');
    await ready();
    await openMenu('h1');
    await fireEvent.click(action('history-save-md', 'h1'));
    await settle();
    expect(app.SaveHistoryExport).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('history-saved')).toBeNull();
    expect(screen.queryByTestId('error-banner')).toBeNull();
  });

  it('shows why a save failed in the error banner', async () => {
    const why = 'Could not save /mnt/usb/Fix the build.md: the disk is full. Free some space, or choose a folder on another disk, and save again.';
    app.SaveHistoryExport.mockImplementation(async () => {
      throw why;
    });
    await ready();
    await openMenu('h1');
    await fireEvent.click(action('history-save-json', 'h1'));
    await settle();
    expect(screen.getByTestId('error-banner').textContent).toContain(why);
    expect(screen.queryByTestId('history-saved')).toBeNull();
  });
});
