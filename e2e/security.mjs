// Agent output is untrusted input rendered in a webview that can call the backend (product.md,
// "what users must never see"). These tests stream hostile output from a scripted agent through
// the real backend into the real UI, and prove that nothing in it executes, that no bound method
// or runtime call is reached from it, that it shows as text, and that the page's
// Content-Security-Policy is strict and in force. Registered by run.mjs.
import { test, startApp, launchBrowser, openPage, waitFor } from './lib/harness.mjs';
import { project, scriptedAgent, send, startSession, stateIs, turnEnds } from './lib/ui.mjs';

// What every payload would run if it could: set a marker, reach a bound method that destroys
// data (every saved session), and open a dialog. Any one of them is caught below.
const payload = (id) =>
  `window.__pwn&&window.__pwn('${id}');` +
  `window.go.main.History.ListHistory('').then(l=>l.forEach(h=>window.go.main.History.DeleteHistory(h.id)));` +
  `window.go.main.History.DeleteHistory('pwned-${id}');alert('pwned-${id}')`;

const TOOL_TITLE = `Edit <img src=x onerror="${payload('tool-title')}"><script>${payload('tool-title-2')}</script>`;
const LOCATION = `/tmp/<script>${payload('location')}</script>/main.go`;
const DIFF_PATH = `<img src=x onerror="${payload('diff-path')}">.go`;
const TERMINAL = `$ make\n<script>${payload('terminal')}</script>\n<img src=x onerror="${payload('terminal-img')}">`;
const PLAN_STEP = `Plan <img src=x onerror="${payload('plan')}">`;
const PERMISSION_TITLE = `Allow <img src=x onerror="${payload('permission')}">?`;
const ALLOW_NAME = `<b>Allow</b><img src=x onerror="${payload('option')}">`;
const SESSION_TITLE = `<img src=x onerror="${payload('session-title')}">Hostile`;
const COMMAND = `<img src=x onerror="${payload('command')}">`;
const CONFIG_CHOICE = `<script>${payload('config')}</script>`;
const INLINE_CODE = '<img src=x onerror=alert(1)>';
const ERROR_MESSAGE = `<img src=x onerror="${payload('error')}">failed`;
const STDERR = `panic: <script>${payload('stderr')}</script>`;

// Raw HTML and Markdown that a sanitiser must defuse. Each line is its own paragraph or block.
const MESSAGE = [
  'Hello **world**. Inline code stays literal: `' + INLINE_CODE + '`',
  `<script>${payload('script')}</script>`,
  `<img src=x onerror="${payload('img')}">`,
  `<a href="javascript:${payload('a-href')}">html javascript link</a>`,
  `[markdown javascript link](javascript:${payload('md-link')})`,
  `[entity javascript link](&#106;avascript:${payload('md-entity-link')})`,
  `<a href="data:text/html,<script>${payload('data-link')}</script>">data link</a>`,
  '[safe link](https://example.com/ok)',
  `<svg><script>${payload('svg-script')}</script></svg>`,
  `<svg onload="${payload('svg-onload')}"><circle r="5"/></svg>`,
  `<iframe srcdoc="<script>parent.__pwn&&parent.__pwn('srcdoc')</script>"></iframe>`,
  `<iframe src="javascript:parent.__pwn&&parent.__pwn('iframe-src')"></iframe>`,
  `<object data="javascript:parent.__pwn('object')"></object><embed src="javascript:parent.__pwn('embed')">`,
  `<details open ontoggle="${payload('details')}"><summary>details</summary>x</details>`,
  `<input autofocus onfocus="${payload('input')}"><video><source onerror="${payload('video')}"></video>`,
  `<form><button formaction="javascript:${payload('form')}">form button</button></form>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${payload('meta')}"><base href="javascript:/">`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${payload('mxss-math')}">`,
  `<noscript><p title="</noscript><img src=x onerror=${payload('mxss-noscript')}>">`,
  `<div style="position:fixed;inset:0;z-index:99;background:red" onclick="${payload('overlay')}">overlay</div>`,
  '<style>body{display:none}</style>',
  '```html\n</code></pre><script>' + payload('fence-body') + '</script>\n```',
  '```"><img src=x onerror="' + payload('fence-info') + '">\nplain\n```',
].join('\n\n');

// A tag split across streamed chunks must not come together as markup either.
const SPLIT = ['\n\n<scr', `ipt>${payload('split-script')}</scr`, 'ipt>\n\n<img src=x on', `error="${payload('split-img')}">`];

const text = (t) => ({ type: 'text', text: t });
const say = (t) => ({ update: { sessionUpdate: 'agent_message_chunk', content: text(t) } });

const hostile = [
  { expect: 'initialize' }, { reply: { protocolVersion: 1, agentCapabilities: {} } },
  { expect: 'session/new' }, { reply: { sessionId: 'hostile-1' } },
  { update: { sessionUpdate: 'available_commands_update', availableCommands: [
    { name: COMMAND, description: `<script>${payload('command-description')}</script>`, input: { hint: COMMAND } }] } },
  { update: { sessionUpdate: 'config_option_update', configOptions: [
    { id: 'hostile', name: `<img src=x onerror="${payload('config-name')}">`, type: 'select', currentValue: 'a',
      options: [{ value: 'a', name: CONFIG_CHOICE }, { value: 'b', name: 'plain' }] }] } },

  // Turn 1: every kind of output, a permission, end_turn.
  { expect: 'session/prompt' },
  { update: { sessionUpdate: 'session_info_update', title: SESSION_TITLE } },
  { update: { sessionUpdate: 'agent_thought_chunk', content: text(`Thinking <img src=x onerror="${payload('thought')}"><script>${payload('thought-2')}</script>`) } },
  { update: { sessionUpdate: 'plan', entries: [
    { content: PLAN_STEP, priority: 'high', status: 'pending' },
    { content: `<script>${payload('plan-2')}</script>`, priority: 'low', status: `"><img src=x onerror="${payload('plan-status')}">` }] } },
  say(MESSAGE),
  ...SPLIT.map(say),
  { update: { sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: TOOL_TITLE, kind: 'edit', status: 'pending',
    locations: [{ path: LOCATION, line: 3 }],
    content: [{ type: 'diff', path: DIFF_PATH, oldText: '<b>old</b>\n', newText: `<script>${payload('diff-text')}</script>\n` }] } },
  { update: { sessionUpdate: 'tool_call', toolCallId: 'run-1', title: `Run <b>make</b>`, kind: 'execute', status: 'completed',
    content: [{ type: 'content', content: text(TERMINAL) }, { type: 'terminal', terminalId: `<img src=x onerror="${payload('terminal-id')}">` }] } },
  { update: { sessionUpdate: 'tool_call', toolCallId: 'read-1', title: 'Read notes', kind: 'read', status: 'completed',
    content: [{ type: 'content', content: text(`<img src=x onerror="${payload('tool-markdown')}"> [x](javascript:${payload('tool-link')})`) },
      { type: `<img src=x onerror="${payload('content-type')}">`, html: `<script>${payload('content-raw')}</script>` }] } },
  { update: { sessionUpdate: `<img src=x onerror="${payload('unknown-kind')}">`, html: `<script>${payload('unknown-raw')}</script>` } },
  { call: 'session/request_permission', want: '"optionId":"allow"', params: {
    toolCall: { toolCallId: 'edit-1', title: PERMISSION_TITLE },
    options: [{ optionId: 'allow', name: ALLOW_NAME, kind: 'allow_once' },
      { optionId: 'reject', name: `Reject <script>${payload('option-2')}</script>`, kind: 'reject_once' }] } },
  { update: { sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed' } },
  { reply: { stopReason: 'end_turn' } },

  // Turn 2: an error whose message and data are HTML, then the agent dies with HTML on stderr.
  { expect: 'session/prompt' },
  { error: { code: -32603, message: ERROR_MESSAGE, data: { details: `<script>${payload('error-data')}</script>` } } },
  { exit: 1, stderr: STDERR },
];

// Before any page script: markers a payload would set, CSP violation reports, navigations.
function watch() {
  window.__pwned = [];
  window.__pwn = (id) => window.__pwned.push(String(id));
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    window.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}: ${e.sample}`));
}

// After the bridge is up: a tripwire on every bound method and runtime call. Calls that carry a
// payload's marker, and any call of the destructive or external ones (which this test never makes
// through the UI), are recorded; BrowserOpenURL is recorded and not passed on (no system browser).
function tripwire() {
  window.__calls = [];
  const always = new Set(['DeleteHistory', 'RenameHistory', 'BrowserOpenURL']);
  const wrap = (obj, prefix) => {
    for (const name of Object.keys(obj)) {
      const fn = obj[name];
      if (typeof fn !== 'function') continue;
      obj[name] = function (...args) {
        let json = '';
        try {
          json = JSON.stringify(args);
        } catch {
          json = String(args);
        }
        if (always.has(name) || json.includes('pwned')) window.__calls.push(`${prefix}${name} ${json}`);
        return name === 'BrowserOpenURL' ? undefined : fn.apply(this, args);
      };
    }
  };
  for (const [service, bound] of Object.entries(window.go.main)) wrap(bound, `${service}.`);
  wrap(window.runtime, 'runtime.');
}

/** Opens the app with the watchers installed, and returns what they saw so far, on demand. */
async function openWatched(ctx, url) {
  await ctx.addInitScript(watch);
  const page = await openPage(ctx, url);
  await page.evaluate(tripwire);
  const seen = { dialogs: [], popups: [], navigations: [] };
  page.on('dialog', (d) => {
    seen.dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  ctx.on('page', (p) => seen.popups.push(p.url()));
  page.on('framenavigated', (f) => f === page.mainFrame() && seen.navigations.push(f.url()));
  return { page, seen };
}

/** Fails if anything ran, was called, opened or navigated; returns the CSP reports. */
async function nothingRan(page, seen, where) {
  const state = await page.evaluate(() => ({
    pwned: window.__pwned,
    calls: window.__calls,
    csp: window.__csp,
    frames: window.frames.length,
    bodyShown: getComputedStyle(document.body).display !== 'none',
  }));
  const problems = [];
  if (state.pwned.length) problems.push(`payloads ran: ${state.pwned.join(', ')}`);
  if (state.calls.length) problems.push(`bound/runtime calls from agent output: ${state.calls.join(' | ')}`);
  if (seen.dialogs.length) problems.push(`dialogs opened: ${seen.dialogs.join(' | ')}`);
  if (seen.popups.length) problems.push(`windows opened: ${seen.popups.join(' | ')}`);
  if (seen.navigations.length) problems.push(`the page navigated to ${seen.navigations.join(', ')}`);
  if (state.frames !== 0 || page.frames().length !== 1) problems.push(`${page.frames().length - 1} frame(s) in the page`);
  if (!state.bodyShown) problems.push('agent CSS hid the page');
  const structure = await page.getByTestId('transcript').evaluate((t) => {
    const bad = [];
    for (const el of t.querySelectorAll('script, iframe, frame, object, embed, form, input, style, meta, base, math, noscript')) {
      // Our own elicitation card is a form (its fields are built from a validated schema, never from markup).
      if ((el.tagName === 'FORM' || el.tagName === 'INPUT') && el.closest('[data-testid=elicitation]')) continue;
      bad.push(`<${el.tagName.toLowerCase()}>`);
    }
    for (const el of t.querySelectorAll('svg:not(.icon)')) bad.push('<svg> (not an icon)');
    for (const el of t.querySelectorAll('.md *, .md')) {
      for (const a of el.attributes) {
        if (a.name.startsWith('on') || a.name === 'style' || a.name === 'srcdoc' || a.name === 'formaction') bad.push(`${el.tagName} ${a.name}`);
        if (/^\s*(javascript|data|vbscript):/i.test(a.value)) bad.push(`${el.tagName} ${a.name}=${a.value.slice(0, 40)}`);
      }
    }
    for (const el of t.querySelectorAll('*')) {
      for (const a of el.attributes) if (a.name.startsWith('on')) bad.push(`${el.tagName} ${a.name}`);
    }
    return bad;
  });
  if (structure.length) problems.push(`active markup in the transcript: ${[...new Set(structure)].join(', ')}`);
  if (problems.length) throw new Error(`${where}:\n${problems.join('\n')}`);
  return state.csp;
}

/** The text of the first element matching selector, which must contain want. */
async function showsLiterally(page, selector, want) {
  const loc = page.locator(selector).first();
  await waitFor(async () => (await loc.count()) === 1, { message: selector });
  const got = await loc.textContent();
  if (!got.includes(want)) throw new Error(`${selector} reads ${JSON.stringify(got)}, want it to contain ${JSON.stringify(want)}`);
}

test('hostile agent output: nothing executes, no bound method is reached, HTML in titles and paths shows as text', async () => {
  const app = await startApp({ env: await scriptedAgent(hostile) });
  const ctx = await launchBrowser();
  const { page, seen } = await openWatched(ctx, app.url);
  await startSession(page, await project());
  await send(page, 'show me everything');

  // Turn 1 streams everything and then asks the permission.
  const permission = page.getByTestId('permission');
  await waitFor(async () => (await permission.count()) === 1, { timeout: 20_000, message: 'the permission prompt' });
  await showsLiterally(page, '[data-testid=permission] .ask-title', PERMISSION_TITLE);
  await showsLiterally(page, '[data-testid=permission-option][data-option-kind=allow_once]', ALLOW_NAME);
  await nothingRan(page, seen, 'while the permission is open');
  // By keyboard, as a person may: the prompt sits above a long transcript that follows its end,
  // and a focused prompt is scrolled to and stays put (a click's own scroll first is not a
  // person's, and the follow undid it).
  const allow = page.locator('[data-testid=permission-option][data-option-kind=allow_once]');
  await allow.focus();
  await allow.press('Enter');
  await turnEnds(page, 'end_turn');

  // Titles, paths, diffs, terminal output and the plan are text: the HTML shows as typed.
  const edit = '[data-testid=entry][data-kind=tool][data-tool-kind=edit]';
  await showsLiterally(page, `${edit} header .title`, '<img src=x onerror=');
  await showsLiterally(page, `${edit} .loc`, LOCATION);
  await showsLiterally(page, `${edit} [data-testid=diff] .path`, DIFF_PATH);
  await showsLiterally(page, `${edit} [data-testid=diff]`, `<script>${payload('diff-text')}</script>`);
  const runTool = '[data-testid=entry][data-kind=tool][data-tool-kind=execute]';
  await showsLiterally(page, `${runTool} header .title`, 'Run <b>make</b>');
  await showsLiterally(page, `${runTool} pre.terminal`, TERMINAL);
  await showsLiterally(page, `${runTool} .terminal-ref`, `<img src=x onerror="${payload('terminal-id')}">`);
  await showsLiterally(page, '[data-testid=entry][data-kind=tool][data-tool-kind=read] .unsupported summary', '<img src=x onerror=');
  await showsLiterally(page, '[data-testid=entry][data-kind=plan] .content', PLAN_STEP);
  await showsLiterally(page, '[data-testid=entry][data-kind=unknown] summary', '<img src=x onerror=');
  await showsLiterally(page, '[data-testid=entry][data-kind=agent] code', INLINE_CODE);
  await showsLiterally(page, '[data-testid=entry][data-kind=agent] strong', 'world');
  await showsLiterally(page, '[data-testid=session-header] .title', SESSION_TITLE);
  await showsLiterally(page, '[data-testid=history-item]', '<img src=x onerror=');
  const config = page.locator('[data-testid=config-option][data-config-id=hostile] option').first();
  if ((await config.textContent()) !== CONFIG_CHOICE) throw new Error(`config choice reads ${await config.textContent()}`);

  // The slash-command palette shows the agent's command names as text.
  const input = page.getByTestId('composer-input');
  await input.click();
  await input.press('/');
  await showsLiterally(page, '[data-testid=command-item]', COMMAND);
  await input.press('Escape');
  await input.fill('');

  // Links: javascript: and data: links lead nowhere when clicked; a plain https link goes to the
  // system browser (recorded by the tripwire, not opened), which shows the click handler is live.
  const agent = page.locator('[data-testid=entry][data-kind=agent]').first();
  for (const name of ['html javascript link', 'markdown javascript link', 'entity javascript link', 'data link']) {
    const link = agent.getByText(name, { exact: true });
    if ((await link.count()) === 0) continue; // dropped entirely by the sanitiser: nothing to click
    await link.click();
  }
  await nothingRan(page, seen, 'after clicking the hostile links');
  await agent.getByText('safe link', { exact: true }).click();
  const opened = await page.evaluate(() => window.__calls.splice(0));
  if (opened.length !== 1 || opened[0] !== 'runtime.BrowserOpenURL ["https://example.com/ok"]') {
    throw new Error(`a click on an https link made ${JSON.stringify(opened)}, want one BrowserOpenURL of it`);
  }
  const url = page.url();

  // Turn 2: the agent's error and its dying stderr are shown as text too.
  await send(page, 'fail now');
  await turnEnds(page, 'error');
  await showsLiterally(page, '[data-testid=turn-end][data-stop-reason=error]', ERROR_MESSAGE);
  await waitFor(() => stateIs(page, 'exited'), { message: 'state exited' });
  await page.locator('[data-testid=stderr-view] summary').click();
  await showsLiterally(page, '[data-testid=stderr-view] pre', STDERR);
  await page.getByTestId('inspector-toggle').click();
  const row = page.locator('[data-testid=inspector-row][data-direction=in][data-method="session/request_permission"]');
  await waitFor(async () => (await row.count()) === 1, { message: 'the permission in the protocol inspector' });
  await row.locator('button').click();
  // Raw JSON as the agent sent it (Go's encoder writes < as \u003c): the text, not markup.
  await showsLiterally(page, '[data-testid=inspector-json]', 'img src=x onerror=');
  if (page.url() !== url) throw new Error(`the page moved to ${page.url()}`);
  const live = await nothingRan(page, seen, 'after the live session');

  // The same session from the history (rendered from the database, not the live stream).
  await page.reload();
  await page.waitForFunction(() => window.go?.main?.History && window.runtime, null, { timeout: 15_000 });
  await page.evaluate(tripwire);
  seen.navigations.length = 0; // the reload itself
  const item = page.getByTestId('history-item');
  await waitFor(async () => (await item.count()) === 1, { message: 'the session in the history' });
  await item.click();
  await waitFor(async () => (await page.locator('[data-testid=entry][data-kind=tool]').count()) === 3, { message: 'the saved transcript' });
  await showsLiterally(page, '[data-testid=entry][data-kind=tool][data-tool-kind=edit] header .title', '<img src=x onerror=');
  await showsLiterally(page, '[data-testid=entry][data-kind=plan] .content', PLAN_STEP);
  const saved = await nothingRan(page, seen, 'in the saved session');

  // No bound method was reached: the session is still in the history, and in the database.
  const ids = await page.evaluate(async () => (await window.go.main.History.ListHistory('')).map((h) => h.id));
  if (ids.length !== 1) throw new Error(`the history lists ${ids.length} sessions after the hostile turn`);

  // CSP reports are blocks, not executions, and markup that got past the sanitiser has failed the
  // structure check above already. Expect some anyway: DOMPurify parses the agent's HTML in an inert
  // DOMParser document, which shares the page's policy, so its <svg onload>, <details ontoggle>,
  // <img onerror> and <base> are reported there (and could not run: that document has no scripting).
  // List them for whoever reads the log.
  for (const r of new Set([...live, ...saved])) console.log(`    note: CSP report (blocked): ${r}`);
});

test('the page runs under a strict Content-Security-Policy: no inline script, no eval, no plugins or frames', async () => {
  const app = await startApp();
  const ctx = await launchBrowser();
  const { page, seen } = await openWatched(ctx, app.url);

  const metas = await page.evaluate(() =>
    [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]')].map((m) => m.content));
  if (metas.length !== 1) throw new Error(`${metas.length} CSP meta elements, want 1`);
  const policy = Object.fromEntries(
    metas[0].split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...v]) => [name.toLowerCase(), v]),
  );
  const scripts = policy['script-src'] ?? policy['default-src'];
  if (!scripts) throw new Error(`no script-src or default-src in ${metas[0]}`);
  for (const bad of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'", '*', 'data:', 'blob:', 'http:', 'https:']) {
    if (scripts.includes(bad)) throw new Error(`script sources allow ${bad}: ${metas[0]}`);
  }
  for (const [name, want] of [['default-src', "'self'"], ['object-src', "'none'"], ['base-uri', "'none'"], ['frame-src', "'none'"], ['form-action', "'none'"]]) {
    if (policy[name]?.join(' ') !== want) throw new Error(`${name} is ${policy[name]?.join(' ') ?? 'missing'}, want ${want}: ${metas[0]}`);
  }

  // In force, not just written: eval, new Function, string timers, inline scripts, inline handlers,
  // javascript: URLs, frames and remote images added to the live page are all refused and reported.
  const evals = await page.evaluate(() => {
    const tryRun = (code, make) => {
      try {
        make(code)();
        return 'ran';
      } catch (e) {
        return e.name;
      }
    };
    // From a timer task: code called straight from the DevTools protocol is exempt from the CSP.
    return new Promise((resolve) =>
      setTimeout(() => {
        setTimeout("window.__pwn('timer-string')");
        resolve({
          eval: tryRun("window.__pwn('eval')", (c) => () => eval(c)),
          function: tryRun("window.__pwn('function')", (c) => new Function(c)),
        });
      }),
    );
  });
  if (evals.eval !== 'EvalError' || evals.function !== 'EvalError') throw new Error(`eval: ${evals.eval}, new Function: ${evals.function}`);
  await page.evaluate(() => {
    const add = (tag, props) => document.body.appendChild(Object.assign(document.createElement(tag), props));
    add('script', { textContent: "window.__pwn('inline-script')" });
    add('button', {}).setAttribute('onclick', "window.__pwn('inline-handler')");
    document.body.lastElementChild.click();
    add('a', { href: "javascript:window.__pwn('javascript-url')" }).click();
    add('iframe', { srcdoc: "<script>parent.__pwn('srcdoc')</script>" }); // inherits the policy
    add('iframe', { src: 'https://example.com/' });
    add('img', { src: 'https://example.com/x.png' });
  });
  const want = ['script-src ', 'script-src-elem ', 'script-src-attr ', 'frame-src ', 'img-src '];
  const reports = await waitFor(async () => {
    const csp = await page.evaluate(() => window.__csp);
    return want.every((d) => csp.some((r) => r.startsWith(d))) && csp;
  }, { message: `CSP reports for ${want.map((d) => d.trim()).join(', ')}` }).catch(async (err) => {
    throw new Error(`${err.message}; got: ${(await page.evaluate(() => window.__csp)).join(' | ')}`);
  });
  const pwned = await page.evaluate(() => window.__pwned);
  if (pwned.length) throw new Error(`ran under the CSP: ${pwned.join(', ')} (reports: ${reports.join(' | ')})`);
  if (seen.dialogs.length || seen.popups.length || seen.navigations.length) throw new Error(`page side effects: ${JSON.stringify(seen)}`);
});
