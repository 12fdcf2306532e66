// One task to several agents in the page (issue 33): the Live group's compare-start opens the
// dialog; Start needs two agents and a prompt, and calls StartComparison with the folder, the
// agents, the prompt and the check; the comparison view shows a row per session with its check's
// exit code and output; Review & apply opens that session's apply dialog; a follow-up goes to
// every ready session.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import App from './App.svelte';
import type { ManualClock } from './lib/clock';
import { app, settle } from './test/harness';
import { FOLDER } from './test/mocks';
import { resetPage } from './test/page';
import type { hub } from '../wailsjs/go/models';

let clock: ManualClock;

const row = (id: string, agent: string, exitCode: number, files: number) => ({
  id,
  agent,
  agentId: agent,
  worktree: `/data/worktrees/p/${id}`,
  branch: `agentdesk/s-${id}`,
  state: 'idle',
  files,
  added: files,
  removed: 1,
  check: { turn: 1, command: 'go test ./...', exitCode, output: exitCode ? 'FAIL\n' : 'ok\n', durationMs: 10 },
  turns: 1,
  wallMs: 1200,
  waitMs: 0,
  tokens: 0,
  cost: [],
  commands: [],
});

beforeEach(() => {
  clock = resetPage();
  app.Comparison.mockImplementation(
    async (id: string) =>
      ({ id, cwd: FOLDER, prompt: 'fix it', check: 'go test ./...', createdAt: '', members: ['c1', 'c2'], rows: [row('c1', 'demo', 0, 2), row('c2', 'claude', 1, 1)] }) as unknown as hub.ComparisonView,
  );
});

afterEach(() => cleanup());

describe('compare', () => {
  it('starts a comparison from the dialog and shows it side by side', async () => {
    render(App, { props: { clock } });
    await settle();
    await fireEvent.click(screen.getByTestId('compare-start'));
    const confirm = screen.getByTestId('compare-confirm') as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    const pick = (id: string) => screen.getAllByTestId('compare-agent').find((e) => e.dataset.agentId === id)!.querySelector('input')!;
    await fireEvent.click(pick('demo'));
    await fireEvent.click(pick('claude'));
    await fireEvent.input(screen.getByTestId('compare-prompt'), { target: { value: 'fix it' } });
    await fireEvent.input(screen.getByTestId('compare-check'), { target: { value: 'go test ./...' } });
    expect(confirm.disabled).toBe(false);
    await fireEvent.click(confirm);
    await waitFor(() => expect(screen.getAllByTestId('compare-row').length).toBe(2));
    expect(app.StartComparison).toHaveBeenCalledWith(FOLDER, ['demo', 'claude'], 'fix it', 'go test ./...');
    const rows = screen.getAllByTestId('compare-row');
    expect(rows.map((r) => r.dataset.checkExit)).toEqual(['0', '1']);
    expect(rows.map((r) => r.dataset.files)).toEqual(['2', '1']);
    expect(screen.getAllByTestId('compare-check-output')[1].textContent).toContain('FAIL');
    expect(screen.queryByTestId('compare-dialog')).toBeNull();

    await fireEvent.click(screen.getAllByTestId('compare-apply')[0]);
    await waitFor(() => expect(app.PreviewApply).toHaveBeenCalledWith('c1'));
    expect(screen.getByTestId('apply-dialog')).toBeTruthy();
  });

  it('sends a follow-up to every ready session', async () => {
    render(App, { props: { clock } });
    await settle();
    await fireEvent.click(screen.getByTestId('compare-start'));
    const pick = (id: string) => screen.getAllByTestId('compare-agent').find((e) => e.dataset.agentId === id)!.querySelector('input')!;
    await fireEvent.click(pick('demo'));
    await fireEvent.click(pick('demo').parentElement!.parentElement!.querySelector('button')!); // the same agent twice
    await fireEvent.input(screen.getByTestId('compare-prompt'), { target: { value: 'fix it' } });
    await fireEvent.click(screen.getByTestId('compare-confirm'));
    expect(app.StartComparison).toHaveBeenCalledWith(FOLDER, ['demo', 'demo'], 'fix it', '');
    await waitFor(() => expect(screen.getAllByTestId('compare-row').length).toBe(2));
    await fireEvent.input(screen.getByTestId('compare-follow-up'), { target: { value: 'and the docs' } });
    await fireEvent.click(screen.getByTestId('compare-send'));
    await waitFor(() => expect(app.Prompt).toHaveBeenCalledTimes(2));
    expect(app.Prompt).toHaveBeenCalledWith('c1', 'and the docs');
    expect(app.Prompt).toHaveBeenCalledWith('c2', 'and the docs');
  });
});
