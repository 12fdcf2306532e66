// The attachments waiting to be sent with the next prompt (files picked, images pasted) and the
// note that explains one that could not be added. They belong to one session, which keeps them
// while another one is shown (state/live-sessions.svelte.ts).
import { hasText, imageDraft, imageFiles, imageProblem, type Draft } from '../../lib/attachments';
import type { FolderFile } from '../../lib/protocol';

export class Drafts {
  list = $state<Draft[]>([]);
  /** A short explanation (an image the agent does not accept, one too large, a read error). */
  note = $state('');

  #images = 0;

  /** Adds a draft (not twice). */
  add = (d: Draft): void => {
    if (!this.list.some((x) => x.key === d.key)) this.list = [...this.list, d];
  };

  /** Adds a file of the picker, a dialog or a drop (not twice), and clears the note. */
  addFile = (file: FolderFile): void => {
    this.add({ key: `file:${file.path}`, kind: 'file', name: file.name, path: file.path, size: file.size });
    this.note = '';
  };

  remove(key: string): void {
    this.list = this.list.filter((d) => d.key !== key);
  }

  /**
   * A paste into the prompt: each image in it becomes a draft when the agent accepts images (else
   * the note says why not). An image-only paste is prevented (there is no text to paste).
   */
  paste(e: ClipboardEvent, acceptsImages: boolean): void {
    const images = imageFiles(e.clipboardData);
    if (images.length === 0) return;
    if (!hasText(e.clipboardData)) e.preventDefault();
    for (const file of images) {
      const problem = imageProblem(file, acceptsImages);
      if (problem) {
        this.note = problem;
        continue;
      }
      this.note = '';
      imageDraft(file, `image:${++this.#images}`).then(this.add, (err: unknown) => {
        this.note = `Could not read the pasted image: ${err instanceof Error ? err.message : String(err)}`;
      });
    }
  }
}
