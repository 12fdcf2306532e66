// One action at a time on a form-like store (the agent editor, the MCP pane, the login panel):
// the store's `busy` is true while it runs and a failure is worded in its `error`, where the
// person is looking, never thrown to the caller.
import { errorMessage } from './api';

/** What busyAction reads and writes: the store's own $state fields. */
export interface BusyForm {
  busy: boolean;
  error: string;
}

/**
 * Runs act unless one already runs on form; clears form.error first, holds form.busy while act
 * runs. Resolves true when act succeeded, false when it failed (form.error then says why) or did
 * not run because another action was under way.
 */
export async function busyAction(form: BusyForm, act: () => Promise<unknown>): Promise<boolean> {
  if (form.busy) return false;
  form.busy = true;
  form.error = '';
  try {
    await act();
    return true;
  } catch (err) {
    form.error = errorMessage(err);
    return false;
  } finally {
    form.busy = false;
  }
}
