// Attachments in the composer (files of the session folder, pasted images) and in the user
// entries of the transcript. Pure helpers, apart from reading a pasted File.
import type { Attachment, AttachmentInfo } from './protocol';

/** The largest image that can be attached (the Go side refuses larger ones too). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** An attachment waiting in the composer. */
export interface Draft {
  /** Unique among the drafts: the file's path, or a counter for images. */
  key: string;
  kind: 'file' | 'image';
  name: string;
  size: number;
  /** file: relative to the session folder. */
  path?: string;
  /** image: MIME type, base64 data, and the same as a data: URL for the thumbnail. */
  mimeType?: string;
  data?: string;
  dataUrl?: string;
}

/** What PromptWith takes for a draft. */
export function toAttachment(d: Draft): Attachment {
  return d.kind === 'file'
    ? { kind: 'file', path: d.path }
    : { kind: 'image', name: d.name, mimeType: d.mimeType, data: d.data };
}

/** A byte count for people: 980 B, 1.2 kB, 3.4 MB (decimal, as the Go side writes them). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/** A short description of a sent attachment: "embedded · 1.2 kB", "link · 3.4 MB", "640×480". */
export function describeSent(a: AttachmentInfo): string {
  if (a.kind === 'image') return a.width && a.height ? `${a.width}×${a.height}` : formatBytes(a.size);
  return `${a.sent === 'embedded' ? 'embedded' : 'link'} · ${formatBytes(a.size)}`;
}

const THUMBNAIL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/;

/** A thumbnail URL that is safe to show: only a base64 image data: URL, else null. */
export function safeThumbnail(url: string | null | undefined): string | null {
  return url && THUMBNAIL.test(url) ? url : null;
}

/** An '@' mention being typed before the caret: its start (the '@') and the query after it. */
export interface Mention {
  start: number;
  query: string;
}

/** The '@word' that ends at the caret, when the '@' starts a word; else null. */
export function mentionAt(text: string, caret: number): Mention | null {
  const m = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!m) return null;
  return { start: m.index + m[1].length, query: m[2] };
}

/** The text without the mention (which ended at caret), and where the caret goes. */
export function removeMention(text: string, mention: Mention, caret: number): { text: string; caret: number } {
  return { text: text.slice(0, mention.start) + text.slice(caret), caret: mention.start };
}

/** The image files on a clipboard (or a drop). */
export function imageFiles(dt: DataTransfer | null | undefined): File[] {
  if (!dt) return [];
  const files = Array.from(dt.files ?? []).filter((f) => f.type.startsWith('image/'));
  if (files.length > 0) return files;
  const out: File[] = [];
  for (const item of Array.from(dt.items ?? [])) {
    if (item.kind === 'file' && item.type.startsWith('image/')) {
      const f = item.getAsFile();
      if (f) out.push(f);
    }
  }
  return out;
}

/** Whether a clipboard also carries text (then the text is pasted as usual). */
export function hasText(dt: DataTransfer | null | undefined): boolean {
  return !!dt && Array.from(dt.types ?? []).includes('text/plain') && dt.getData('text/plain') !== '';
}

/** Why an image cannot be attached, or '' when it can. */
export function imageProblem(file: File, acceptsImages: boolean): string {
  if (!acceptsImages) {
    return 'This agent does not accept images. Save the image in the session folder and attach the file instead.';
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return `The image is ${formatBytes(file.size)}: images up to 10 MiB can be attached. Paste a smaller one.`;
  }
  return '';
}

/** Reads a pasted image into a draft. */
export async function imageDraft(file: File, key: string): Promise<Draft> {
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name || 'the image'}`));
    reader.readAsDataURL(file);
  });
  const comma = dataUrl.indexOf(',');
  const ext = file.type.replace(/^image\//, '').replace(/\W.*$/, '') || 'png';
  return {
    key,
    kind: 'image',
    name: file.name || `pasted image.${ext}`,
    size: file.size,
    mimeType: file.type,
    data: dataUrl.slice(comma + 1),
    dataUrl: safeThumbnail(dataUrl) ?? undefined,
  };
}
