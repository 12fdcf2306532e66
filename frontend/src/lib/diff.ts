// A line-level diff (LCS) for tool-call diffs, rendered as a unified diff.

export type DiffOp = 'same' | 'add' | 'del';

export interface DiffLine {
  op: DiffOp;
  text: string;
  /** 1-based line number in the old text (same/del). */
  oldNo?: number;
  /** 1-based line number in the new text (same/add). */
  newNo?: number;
}

/** Above this many LCS cells (old x new changed lines), fall back to "all removed, all added". */
const MAX_CELLS = 4_000_000;

export function splitLines(text: string | null | undefined): string[] {
  if (text == null || text === '') return [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Diff of oldText -> newText; oldText null/undefined means a new file (every line added). */
export function diffLines(oldText: string | null | undefined, newText: string | null | undefined): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const out: DiffLine[] = [];

  // Common prefix and suffix first: cheap and keeps the LCS table small.
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;

  for (let i = 0; i < pre; i++) out.push({ op: 'same', text: a[i], oldNo: i + 1, newNo: i + 1 });

  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const n = am.length;
  const m = bm.length;

  if (n * m > MAX_CELLS) {
    am.forEach((text, i) => out.push({ op: 'del', text, oldNo: pre + i + 1 }));
    bm.forEach((text, j) => out.push({ op: 'add', text, newNo: pre + j + 1 }));
  } else if (n > 0 || m > 0) {
    // lcs[i][j] = LCS length of am[i:] and bm[j:], in one flat array.
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] = am[i] === bm[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        out.push({ op: 'same', text: am[i], oldNo: pre + i + 1, newNo: pre + j + 1 });
        i++;
        j++;
      } else if (i < n && (j >= m || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
        // Deletions before additions, as in a unified diff.
        out.push({ op: 'del', text: am[i], oldNo: pre + i + 1 });
        i++;
      } else {
        out.push({ op: 'add', text: bm[j], newNo: pre + j + 1 });
        j++;
      }
    }
  }

  for (let k = 0; k < suf; k++) {
    const oi = a.length - suf + k;
    const ni = b.length - suf + k;
    out.push({ op: 'same', text: a[oi], oldNo: oi + 1, newNo: ni + 1 });
  }
  return out;
}

export interface DiffStats {
  added: number;
  removed: number;
}

export function diffStats(lines: DiffLine[]): DiffStats {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.op === 'add') added++;
    else if (l.op === 'del') removed++;
  }
  return { added, removed };
}

export type DiffRow = { type: 'line'; line: DiffLine } | { type: 'fold'; count: number; start: number };

/** Collapses runs of unchanged lines longer than 2*context+1 into a fold row. */
export function foldContext(lines: DiffLine[], context = 3): DiffRow[] {
  const rows: DiffRow[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i].op !== 'same') {
      rows.push({ type: 'line', line: lines[i] });
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && lines[j].op === 'same') j++;
    const run = j - i;
    const head = i === 0 ? 0 : context;
    const tail = j === lines.length ? 0 : context;
    if (run > head + tail + 1) {
      for (let k = i; k < i + head; k++) rows.push({ type: 'line', line: lines[k] });
      rows.push({ type: 'fold', count: run - head - tail, start: i + head });
      for (let k = j - tail; k < j; k++) rows.push({ type: 'line', line: lines[k] });
    } else {
      for (let k = i; k < j; k++) rows.push({ type: 'line', line: lines[k] });
    }
    i = j;
  }
  return rows;
}

/** One row of a side-by-side diff: a fold, or the old line (left) beside the new one (right). */
export type SplitRow = { type: 'fold'; count: number; start: number } | { type: 'pair'; left: DiffLine | null; right: DiffLine | null };

/**
 * The rows of a unified diff (foldContext) side by side: an unchanged line on both sides, a run
 * of removed lines beside the run of added lines that follows it, paired in order (the longer
 * run's rest beside nothing).
 */
export function splitRows(rows: DiffRow[]): SplitRow[] {
  const out: SplitRow[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) out.push({ type: 'pair', left: dels[k] ?? null, right: adds[k] ?? null });
    dels = [];
    adds = [];
  };
  for (const row of rows) {
    if (row.type === 'fold') {
      flush();
      out.push(row);
    } else if (row.line.op === 'del') {
      if (adds.length > 0) flush(); // a removal after additions starts a new run
      dels.push(row.line);
    } else if (row.line.op === 'add') {
      adds.push(row.line);
    } else {
      flush();
      out.push({ type: 'pair', left: row.line, right: row.line });
    }
  }
  flush();
  return out;
}
