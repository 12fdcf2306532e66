// One action at a time for a form's store (the agent editor, the MCP servers, the login prompt),
// with the last failure in words for the form to show.
import { errorMessage } from './api';

/** What attempt() reads and sets: true while an action runs; the last action's failure, in words. */
export interface Attempting {
  busy: boolean;
  error: string;
}

/**
 * Runs action unless one is under way (then resolves false at once). While it runs, s.busy is
 * true; s.error is cleared first and holds the failure's words if it rejects. Resolves true when
 * the action succeeded, false when it failed or did not run; never rejects.
 */
export async function attempt(s: Attempting, action: () => Promise<void>): Promise<boolean> {
  if (s.busy) return false;
  s.busy = true;
  s.error = '';
  try {
    await action();
    return true;
  } catch (err) {
    s.error = errorMessage(err);
    return false;
  } finally {
    s.busy = false;
  }
}
