// The live sessions of the page (issue 15): one SessionStore per session, the per-session UI state
// that must survive switching (the composer's text and attachments, the transcript's cells and
// scroll position, the unseen mark, the login prompt) and the one shown, `active`.
//
// The page subscribes to `session:event` once and hands every message to handleAll(), which
// routes each event by sessionId to its session's store in one pass; events of sessions the page
// does not hold (closed ones, or not yet adopted) are dropped. Start never replaces a session:
// attach() adds one beside the others. adopt() takes the sessions the Go side already has (a page
// reload loses none). Closing asks first while a turn runs (requestClose sets `confirming`);
// while starting it cancels the start (cancelStart: CancelStart), else it closes (CloseSession);
// the row leaves once the Go side has answered. A cancelled start is no failure: its events
// (the engine fails the start "cancelled") are dropped while CancelStart runs, and once the row
// has gone `notice` says "Start cancelled." until another session is shown. A turn end or a
// permission or an elicitation in a session that is not shown marks it unseen until it is selected.
import * as api from '../lib/api';
import { realClock, type Clock } from '../lib/clock';
import type { Entry, PermissionEvent, SessionEvent, SessionInfo, Snapshot } from '../lib/protocol';
import { Drafts } from '../components/composer/drafts.svelte';
import { AuthStore } from './auth.svelte';
import { liveStatus, turnRunning, waitingCount, type LiveStatus } from './live-status';
import { SessionStore } from './session.svelte';
import type { TranscriptState } from './transcript';
import { TranscriptView } from './view.svelte';

/** A live session as ListLive() reports it. */
export interface LiveInfo extends SessionInfo {
  /** The engine's state when listed. */
  state?: string;
}

/** Where the transcript was scrolled to when the session was last shown. */
export interface TranscriptScroll {
  top: number;
  /** It followed new content (was at the end). */
  stuck: boolean;
}

export interface LiveSessionsDeps {
  clock?: Clock;
  /** The one error sink (the page's banner). */
  onError?: (message: string) => void;
  /** A turn of `session` ended, or its agent exited or failed. */
  onTurnEnd?: (session: LiveSession) => void;
  /** A permission request of `session` arrived. */
  onPermission?: (session: LiveSession, state: TranscriptState, event: PermissionEvent) => void;
  /** An elicitation of `session` opened (the agent asks the person). */
  onElicitation?: (session: LiveSession, state: TranscriptState, entry: Entry) => void;
  /** Session `id` was closed or its start cancelled, and has left the list (the history changed). */
  onGone?: (id: string) => void;
  /** A session was added by a login (the failed one it replaces is closed). */
  onStarted?: (session: LiveSession) => void;
  listLive?: () => Promise<LiveInfo[]>;
  closeSession?: (sessionId: string) => Promise<void>;
  cancelStart?: (sessionId: string) => Promise<void>;
  snapshot?: (sessionId: string) => Promise<Snapshot>;
}

/** What is being written in the composer: the prompt's text and its attachments. */
export class ComposerDraft {
  text = $state('');
  readonly drafts = new Drafts();
}

/** One live session and what the page keeps for it while it is not shown. */
export class LiveSession {
  readonly id: string;
  readonly agentId: string;
  readonly store: SessionStore;
  /** The transcript's cells (thoughts opened, cards collapsed); synced only while shown. */
  readonly view = new TranscriptView();
  /** The composer's text and the attachments waiting to be sent. */
  readonly composer: ComposerDraft;
  /** Saved when the transcript is hidden, restored when shown (not reactive). */
  scroll: TranscriptScroll = { top: 0, stuck: true };
  /** A turn ended or a permission arrived while it was not shown. */
  unseen = $state(false);
  /** Its login prompt (a start or a turn that failed for want of a login). */
  readonly auth: AuthStore;
  /** CloseSession or CancelStart is in flight. */
  closing = $state(false);
  /** CancelStart is in flight: its events are dropped (the start's end is no failure to show). */
  cancelling = $state(false);

  /** The row's state (live-status.ts); a session being closed reads stopping. */
  readonly status: LiveStatus = $derived.by(() => {
    const s = liveStatus(this.store.current);
    return this.closing && s !== 'failed' && s !== 'exited' ? 'stopping' : s;
  });
  /** Decisions waiting on the person: open permission requests and elicitations. */
  readonly waiting = $derived.by(() => waitingCount(this.store.current));
  /** Its title, else its first prompt, else "". */
  readonly title = $derived.by(() => {
    const cur = this.store.current;
    if (!cur) return '';
    return cur.title.trim() || (cur.entries.find((e) => e.kind === 'user')?.text?.trim() ?? '');
  });
  readonly agentName = $derived.by(() => this.store.current?.agentName ?? '');
  readonly cwd = $derived.by(() => this.store.current?.cwd ?? '');

  constructor(info: LiveInfo, store: SessionStore, auth: AuthStore, composer = new ComposerDraft()) {
    this.id = info.sessionId;
    this.agentId = info.agentId ?? '';
    this.store = store;
    this.auth = auth;
    this.composer = composer;
  }
}

export class LiveSessions {
  /** In start order. */
  list = $state.raw<LiveSession[]>([]);
  activeId = $state<string | null>(null);
  /** The shown session, or null. */
  readonly active: LiveSession | null = $derived(this.list.find((s) => s.id === this.activeId) ?? null);
  /** The session whose close waits for a confirmation (a turn runs), or null. */
  confirming = $state<string | null>(null);
  /** A calm line about the last thing done to a session that has gone ("Start cancelled."), or null. */
  notice = $state<string | null>(null);
  /** clock.now(), every second while some session runs a turn (runClock). */
  now = $state(0);
  /** Some session runs or stops a turn. */
  readonly ticking = $derived(this.list.some((s) => turnRunning(s.status)));

  readonly #clock: Clock;
  readonly #deps: LiveSessionsDeps;
  readonly #onError: (message: string) => void;

  constructor(deps: LiveSessionsDeps = {}) {
    this.#deps = deps;
    this.#clock = deps.clock ?? realClock;
    this.#onError = deps.onError ?? (() => {});
    this.now = this.#clock.now();
  }

  get(id: string | null | undefined): LiveSession | undefined {
    return id ? this.list.find((s) => s.id === id) : undefined;
  }

  /**
   * Adds a session that was just started (or listed) and takes its snapshot. A known id starts
   * afresh but keeps what the person was writing in its composer: the same start can arrive
   * twice (ListLive at page load lists a session whose StartSession has not answered yet, and
   * the person may type into it before open() attaches it again), and a reused id's unsent
   * prompt is the person's work too.
   */
  attach(info: LiveInfo): Promise<void> {
    const old = this.get(info.sessionId);
    if (old) old.store.detach();
    const session = this.#create(info, old?.composer);
    this.notice = null;
    this.list = old ? this.list.map((s) => (s === old ? session : s)) : [...this.list, session];
    return session.store.attach(info);
  }

  /** Adds a started session and shows it. */
  async open(info: LiveInfo): Promise<void> {
    const attached = this.attach(info);
    this.select(info.sessionId);
    await attached;
  }

  /** Takes the live sessions the Go side has (ListLive) that the page does not; shows the first if none is. */
  async adopt(): Promise<void> {
    let listed: LiveInfo[];
    try {
      listed = (await (this.#deps.listLive ?? api.ListLive)()) ?? [];
    } catch (err) {
      this.#onError(api.errorMessage(err));
      return;
    }
    const fresh = listed.filter((l) => !this.get(l.sessionId));
    const done = fresh.map((l) => this.attach(l));
    if (!this.activeId && this.list.length > 0) this.select(this.list[0].id);
    await Promise.all(done);
  }

  /** Shows session `id` (clears its unseen mark). */
  select(id: string | null): void {
    const s = this.get(id);
    this.activeId = s ? s.id : null;
    if (s) s.unseen = false;
    this.notice = null;
  }

  /** Shows the next session in the list (wrapping), or the previous one with `step` -1. */
  next(step: 1 | -1 = 1): void {
    const n = this.list.length;
    if (n === 0) return;
    const i = this.list.findIndex((s) => s.id === this.activeId);
    const at = i < 0 ? (step > 0 ? 0 : n - 1) : (i + step + n) % n;
    this.select(this.list[at].id);
  }

  /** Close pressed: asks first while a turn runs (sets `confirming`), else closes at once. */
  requestClose(id: string | null = this.activeId): void {
    const s = this.get(id);
    if (!s || s.closing) return;
    if (turnRunning(s.status)) this.confirming = s.id;
    else void this.close(s.id);
  }

  /**
   * Ends session `id`: a start is cancelled (CancelStart), anything else closed (CloseSession: a
   * running turn is stopped first). The row leaves once that returned; a failure keeps it.
   */
  async close(id: string): Promise<void> {
    const s = this.get(id);
    if (this.confirming === id) this.confirming = null;
    if (!s || s.closing) return;
    if (s.status === 'starting') return this.cancelStart(id);
    s.closing = true;
    try {
      await (this.#deps.closeSession ?? api.CloseSession)(id);
    } catch (err) {
      s.closing = false;
      this.#onError(api.errorMessage(err));
      return;
    }
    this.remove(id);
    this.#deps.onGone?.(id);
  }

  /**
   * Cancels the start of session `id` (CancelStart: its agent's process group is killed, no
   * history row is left). Its events are dropped meanwhile; once the Go side has answered the row
   * leaves and `notice` reads "Start cancelled.". When the start had ended meanwhile (or the call
   * failed) the session stays, brought up to date, and the error goes to onError.
   */
  async cancelStart(id: string | null = this.activeId): Promise<void> {
    const s = this.get(id);
    if (!s || s.closing || s.status !== 'starting') return;
    s.closing = true;
    s.cancelling = true;
    try {
      await (this.#deps.cancelStart ?? api.CancelStart)(s.id);
    } catch (err) {
      s.closing = false;
      s.cancelling = false;
      void s.store.resync();
      this.#onError(api.errorMessage(err));
      return;
    }
    this.remove(s.id);
    this.notice = 'Start cancelled.';
    this.#deps.onGone?.(s.id);
  }

  /** Forgets session `id` (the page's side only); the shown one passes to its neighbour. */
  remove(id: string): void {
    const i = this.list.findIndex((s) => s.id === id);
    if (i < 0) return;
    const s = this.list[i];
    s.store.detach();
    this.list = this.list.filter((x) => x !== s);
    if (this.confirming === id) this.confirming = null;
    if (this.activeId === id) this.select(this.list[Math.min(i, this.list.length - 1)]?.id ?? null);
  }

  /** Feeds one `session:event` message: each event to its session's store, in order. */
  handleAll(events: readonly SessionEvent[]): void {
    if (events.length === 0) return;
    const first = events[0].sessionId;
    if (events.every((e) => e.sessionId === first)) {
      this.#feed(first, events);
      return;
    }
    const by = new Map<string, SessionEvent[]>();
    for (const e of events) {
      const list = by.get(e.sessionId);
      if (list) list.push(e);
      else by.set(e.sessionId, [e]);
    }
    for (const [id, evs] of by) this.#feed(id, evs);
  }

  /** Hands `events` to session `id`'s store, unless its start is being cancelled. */
  #feed(id: string, events: readonly SessionEvent[]): void {
    const s = this.get(id);
    if (s && !s.cancelling) s.store.handleAll(events);
  }

  /**
   * Keeps `now` current every second while some session runs a turn: call inside an $effect
   * (it reads `ticking`) and return what it returns.
   */
  runClock(): (() => void) | undefined {
    if (!this.ticking) return undefined;
    this.now = this.#clock.now();
    return this.#clock.setInterval(() => (this.now = this.#clock.now()), 1000);
  }

  #create(info: LiveInfo, composer?: ComposerDraft): LiveSession {
    // The store's callbacks need the session, which needs the store: `session` is set below,
    // before any callback can run (they run on events, after attach()).
    let session!: LiveSession;
    const mark = () => {
      if (session.id !== this.activeId) session.unseen = true;
    };
    const store = new SessionStore({
      clock: this.#clock,
      snapshot: this.#deps.snapshot,
      onError: this.#onError,
      onTurnEnd: () => {
        mark();
        this.#deps.onTurnEnd?.(session);
      },
      onPermission: (state, event) => {
        mark();
        this.#deps.onPermission?.(session, state, event);
      },
      onElicitation: (state, entry) => {
        mark();
        this.#deps.onElicitation?.(session, state, entry);
      },
    });
    const auth = new AuthStore({
      onStarted: async (started) => {
        const failed = session.id;
        await this.open(started);
        const s = this.get(started.sessionId);
        if (s) this.#deps.onStarted?.(s);
        void this.close(failed);
      },
    });
    session = new LiveSession(info, store, auth, composer);
    return session;
  }
}
