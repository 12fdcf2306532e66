// Files dropped on the window (lib/events.ts onFilesDropped) become attachments of the shown live
// session's next prompt, as if picked one by one: the Go side checks each was really dropped and
// may be read (Sessions.AttachDropped); what it refused is said in the composer's note.
import type { Drafts } from '../components/composer/drafts.svelte';
import type { DroppedFiles } from '../lib/protocol';

export interface DropDeps {
  /** The attachments of the shown live session that can still prompt, or null (none shown, a saved one, one ended). */
  target: () => Drafts | null;
  /** Sessions.AttachDropped for the shown live session; undefined when it failed (already reported). */
  attach: (paths: string[]) => Promise<DroppedFiles | undefined>;
  /** Tells the person something outside the composer (the page's notice). */
  notify: (note: string) => void;
}

/** Attaches the dropped `paths` to the shown live session's next prompt, or says why it cannot. */
export async function attachDropped(paths: string[], deps: DropDeps): Promise<void> {
  const drafts = deps.target();
  if (!drafts) {
    deps.notify('To attach dropped files, show a live session first (start one, or continue a saved one).');
    return;
  }
  const got = await deps.attach(paths);
  if (!got) return;
  for (const f of got.files) drafts.addFile(f);
  if (got.problems.length > 0) drafts.note = got.problems.join(' ');
}
