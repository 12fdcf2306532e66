// The Rules view (issue 18): opened from the sidebar, it lists every rule (data-decision, how
// often it fired), its switch, delete (after a confirm) and the global pause call the service;
// a bad rule's refusal shows in the editor; the empty view says where rules come from.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { app } from '../../test/harness';
import { ruleInfo } from '../../test/mocks';
import { resetPage, startSession } from '../../test/page';

let clock: ReturnType<typeof resetPage>;

beforeEach(() => {
  clock = resetPage();
  app.List.mockImplementation(async () => ({
    paused: false,
    rules: [
      ruleInfo({ id: 'r-allow', fired: 3, lastFiredAt: '2026-03-10T11:55:00Z' }),
      ruleInfo({ id: 'r-reject', decision: 'reject', kind: 'execute', label: 'commands `rm` in ~/project for any agent', agentId: '', agentName: '' }),
    ],
  }));
});
afterEach(() => cleanup());

async function open() {
  await startSession(clock);
  await fireEvent.click(screen.getByTestId('rules-open'));
  await waitFor(() => expect(screen.getAllByTestId('rule-item')).toHaveLength(2));
  return screen.getByTestId('rules-view');
}

describe('rules view', () => {
  it('lists the rules with their decision, words, agent and firing', async () => {
    await open();
    const [allow, reject] = screen.getAllByTestId('rule-item');
    expect(allow.dataset.decision).toBe('allow');
    expect(allow.dataset.ruleId).toBe('r-allow');
    expect(reject.dataset.decision).toBe('reject');
    expect(allow.textContent).toContain('reads in /home/me/project for Claude Code');
    expect(allow.textContent).toContain('answered 3 times, last 5 min ago');
    expect(reject.textContent).toContain('any agent');
    expect(reject.textContent).toContain('has not answered yet');
  });

  it('turns a rule off, deletes one after a confirm, and pauses them all', async () => {
    await open();
    const [allow, reject] = screen.getAllByTestId('rule-item');
    const toggle = within(allow).getByTestId('rule-toggle');
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await fireEvent.click(toggle);
    await waitFor(() => expect(app.SetDisabled).toHaveBeenCalledWith('r-allow', true));
    await waitFor(() => expect(within(screen.getAllByTestId('rule-item')[0]).getByTestId('rule-toggle').getAttribute('aria-checked')).toBe('false'));

    await fireEvent.click(within(reject).getByTestId('rule-delete'));
    expect(app.Delete).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByTestId('rule-delete-confirm'));
    await waitFor(() => expect(app.Delete).toHaveBeenCalledWith('r-reject'));
    await waitFor(() => expect(screen.getAllByTestId('rule-item')).toHaveLength(1));

    const pause = screen.getByTestId('rules-pause');
    expect(pause.textContent).toContain('Ask me for everything');
    expect(screen.queryByTestId('rules-paused-banner')).toBeNull();
    await fireEvent.click(pause);
    await waitFor(() => expect(app.SetPaused).toHaveBeenCalledWith(true));
    await waitFor(() => expect(pause.getAttribute('aria-checked')).toBe('true'));
    expect(screen.getByTestId('rules-paused-banner').textContent).toContain('Rules are paused');
  });

  it('adds a rule, showing a refusal in the editor, and exports and imports', async () => {
    app.Save.mockImplementationOnce(async () => {
      throw 'could not save the rule: command prefix "rm; ls" must be plain words';
    });
    await open();
    await fireEvent.click(screen.getByTestId('rule-add'));
    const editor = screen.getByTestId('rule-editor');
    await fireEvent.input(within(editor).getByTestId('rule-edit-command'), { target: { value: 'rm; ls' } });
    await fireEvent.click(within(editor).getByTestId('rule-edit-save'));
    await waitFor(() => expect(screen.getByTestId('rule-edit-error').textContent).toContain('must be plain words'));
    expect(app.Save).toHaveBeenCalledWith(expect.objectContaining({ id: '', command: 'rm; ls', decision: 'allow' }));
    await fireEvent.input(within(editor).getByTestId('rule-edit-command'), { target: { value: 'go test' } });
    await fireEvent.click(within(editor).getByTestId('rule-edit-save'));
    await waitFor(() => expect(screen.queryByTestId('rule-editor')).toBeNull());
    expect(screen.getAllByTestId('rule-item')).toHaveLength(3);

    await fireEvent.click(screen.getByTestId('rules-export'));
    await waitFor(() => expect(screen.getByTestId('rules-result').textContent).toContain('/home/me/project/agentdesk-rules.json'));
    app.ImportFile.mockImplementation(async () => 2);
    await fireEvent.click(screen.getByTestId('rules-import'));
    await waitFor(() => expect(screen.getByTestId('rules-result').textContent).toBe('Imported 2 rules'));
  });

  it('says where rules come from when there are none, and Escape goes back', async () => {
    app.List.mockImplementation(async () => ({ paused: false, rules: [] }));
    await startSession(clock);
    await fireEvent.click(screen.getByTestId('rules-open'));
    await waitFor(() => expect(screen.getByTestId('rules-empty').textContent).toContain('Make a rule…'));
    await fireEvent.keyDown(screen.getByTestId('rules-view'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('rules-view')).toBeNull());
    expect(screen.getByTestId('composer-input')).toBeTruthy();
  });
});
