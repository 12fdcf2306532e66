// Injected by app_selftest.go into the real window. It drives the UI by the test contract
// (data-testid) exactly as a person would, then reports to SelfTestDone.
(async () => {
  const lines = [];
  const check = (cond, name) => lines.push((cond ? 'ok ' : 'FAIL ') + name);
  const $ = (sel) => document.querySelector(sel);
  const waitFor = async (fn, ms = 12000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const v = fn();
      if (v) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
    return null;
  };
  const type = (el, value) => {
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  };
  // Whether the real window delivers session events in seq order (the dev server's websocket
  // does not); reported as a figure, since the page copes either way.
  const order = { events: 0, late: 0, last: {} };
  try {
    check(await waitFor(() => window.go && window.go.main && window.runtime), 'bindings and runtime are injected');
    window.runtime.EventsOn('session:event', (ev) => {
      order.events++;
      if (ev.seq <= (order.last[ev.sessionId] || 0)) order.late++;
      order.last[ev.sessionId] = Math.max(ev.seq, order.last[ev.sessionId] || 0);
    });
    check(await waitFor(() => $('[data-testid=agent-option][data-agent-id=demo]')), 'the Demo agent is listed');
    type(await waitFor(() => $('[data-testid=cwd-input]')), __CWD__);
    (await waitFor(() => { const b = $('[data-testid=start-session]'); return b && !b.disabled && b; })).click();
    check(await waitFor(() => ($('[data-testid=session-state]') || {}).textContent === 'idle'), 'the session starts (state idle)');
    type($('[data-testid=composer-input]'), 'hello from the smoke test');
    // Svelte enables Send on its next update, not synchronously with the input event.
    (await waitFor(() => { const b = $('[data-testid=send]'); return b && !b.disabled && b; })).click();
    const allow = await waitFor(() => $('[data-testid=permission-option][data-option-kind=allow_once]'));
    check(allow, 'the permission prompt shows the agent\'s options');
    if (allow) allow.click();
    check(await waitFor(() => $('[data-testid=turn-end][data-stop-reason=end_turn]')), 'the turn ends with end_turn');
    check(await waitFor(() => ($('[data-testid=session-state]') || {}).textContent === 'idle'),
      'the session is idle again after the turn (state: ' + ($('[data-testid=session-state]') || {}).textContent + ')');
    const sc = $('[data-testid=transcript]');
    check(await waitFor(() => sc.scrollHeight - sc.scrollTop - sc.clientHeight < 48),
      'the transcript followed the stream to its end');
    const kinds = new Set([...document.querySelectorAll('[data-testid=entry]')].map((e) => e.dataset.kind));
    check(['user', 'thought', 'agent', 'tool', 'plan'].every((k) => kinds.has(k)), 'the transcript shows user, thought, agent, tool and plan entries');
    check(await waitFor(() => ($('[data-testid=history-item]') || {}).textContent?.includes('hello from the smoke test')),
      'the session is listed in the history under its first prompt');
    // A second live session beside the first: Start adds one, the first stays live and
    // answerable after switching back and forth.
    const rows = () => [...document.querySelectorAll('[data-testid=live-session]')];
    const firstId = (rows()[0] || { dataset: {} }).dataset.sessionId;
    (await waitFor(() => { const b = $('[data-testid=start-session]'); return b && !b.disabled && b; })).click();
    check(await waitFor(() => rows().length === 2 && rows().every((r) => r.dataset.state === 'ready')),
      'a second Start adds a second live session; both are ready (' + rows().map((r) => r.dataset.state).join(', ') + ')');
    type($('[data-testid=composer-input]'), 'hello from the second session');
    (await waitFor(() => { const b = $('[data-testid=send]'); return b && !b.disabled && b; })).click();
    check(await waitFor(() => rows().some((r) => r.dataset.sessionId !== firstId && r.dataset.state === 'waiting')),
      'the second session waits for a permission');
    (rows().find((r) => r.dataset.sessionId === firstId)?.querySelector('button') || { click() {} }).click();
    check(await waitFor(() => ($('[data-testid=session-state]') || {}).textContent === 'idle' &&
      [...document.querySelectorAll('[data-testid=entry][data-kind=user]')].some((e) => e.textContent.includes('hello from the smoke test'))),
      'switching back shows the first session, idle, with its transcript');
    (rows().find((r) => r.dataset.sessionId !== firstId)?.querySelector('button') || { click() {} }).click();
    const allow2 = await waitFor(() => $('[data-testid=permission-option][data-option-kind=allow_once]'));
    check(allow2, 'the second session\'s permission is still open after the switch');
    if (allow2) allow2.click();
    check(await waitFor(() => rows().length === 2 && rows().every((r) => r.dataset.state === 'ready') &&
      $('[data-testid=turn-end][data-stop-reason=end_turn]')), 'the second session\'s turn ends; both sessions are ready');
    check(order.events > 0, `the window received ${order.events} session events, ${order.late} of them out of seq order`);
  } catch (e) {
    lines.push('FAIL the self-test threw: ' + e);
  }
  await window.go.main.Desktop.SelfTestDone(lines.join('\n'));
})();
