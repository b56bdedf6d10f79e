/* global document, location, fetch, EventSource, DOMParser, TextDecoderStream */
// intentlog web view: the few things a server-rendered page cannot do alone.
// Plain script, no build step, no dependencies; every page works without it.
(() => {
  'use strict';
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';
  const status = document.getElementById('live-status');
  const say = (text) => {
    if (status) status.textContent = text;
  };

  // The timeline: each committed event arrives over server-sent events, newest on top.
  const cell = (text, className) => {
    const td = document.createElement('td');
    if (className) td.className = className;
    td.textContent = text;
    return td;
  };
  const hash = (value) => {
    const abbr = document.createElement('abbr');
    abbr.className = 'hash';
    abbr.title = value;
    abbr.setAttribute('aria-label', `hash ${value}`);
    abbr.textContent = value.slice(0, 10);
    return abbr;
  };
  const eventRow = (r) => {
    const tr = document.createElement('tr');
    tr.className = 'fresh';
    const time = document.createElement('time');
    time.dateTime = r.created_at;
    time.textContent = r.created_at.slice(0, 19).replace('T', ' ');
    const when = cell('');
    when.append(time);
    const type = cell('');
    const code = document.createElement('code');
    code.textContent = r.type;
    type.append(code);
    const actor = cell(`${r.actor_id} `);
    const role = document.createElement('span');
    role.className = 'role';
    role.textContent = r.actor_role;
    actor.append(role);
    const chain = cell('', 'chain');
    chain.append(hash(r.prev_hash), ' → ', hash(r.hash));
    tr.append(cell(String(r.position)), when, cell(r.project_id), cell(r.context));
    tr.append(cell(r.stream, 'stream'), type, actor, chain);
    return tr;
  };
  const rows = document.getElementById('timeline-rows');
  if (rows?.dataset.liveSrc) {
    const source = new EventSource(rows.dataset.liveSrc);
    source.addEventListener('log', (message) => {
      const row = JSON.parse(message.data);
      rows.prepend(eventRow(row));
      while (rows.rows.length > 200) rows.deleteRow(rows.rows.length - 1);
      say(`new event ${row.type} at position ${row.position}`);
    });
  }

  // A project's page: when its project changes, fetch the page again and swap the live region,
  // unless the person is typing in one of its forms. A region that can be patched
  // (data-live-patch: the board) fetches only the cards of the stories the events touched and
  // moves them to their cells; anything else it cannot place falls back to the whole region.
  const region = document.getElementById('live-region');
  if (region?.dataset.liveProject) {
    const project = region.dataset.liveProject;
    const patchUrl = region.dataset.livePatch;
    let timer;
    let whole = false;
    const touched = new Set();
    let running = Promise.resolve();
    const typing = () =>
      region.contains(document.activeElement) &&
      document.activeElement.matches('input, textarea, select');
    const refresh = async () => {
      const response = await fetch(location.pathname + location.search, {
        headers: { accept: 'text/html' },
      });
      if (!response.ok) return;
      const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
      const fresh = doc.getElementById('live-region');
      if (fresh) {
        region.innerHTML = fresh.innerHTML;
        say('this page was updated');
      }
    };
    const fragmentOf = (markup) => {
      const template = document.createElement('template');
      template.innerHTML = markup.trim();
      return template.content.firstElementChild;
    };
    const keyOf = (li) => li.querySelector('.key')?.textContent ?? '';
    const numberOf = (li) => Number(keyOf(li).split('-').pop());
    const cardOf = (key) =>
      [...region.querySelectorAll('table.board li.card')].find((li) => keyOf(li) === key);
    // true when every card found its place; false asks for the whole region
    const patch = async (ids) => {
      const url = new URL(patchUrl, location.href);
      url.searchParams.set('stories', ids.join(','));
      const response = await fetch(url, { headers: { accept: 'application/json' } });
      if (!response.ok) return false;
      const { summary, cards } = await response.json();
      const cells = new Map(
        [...region.querySelectorAll('td[data-cell]')].map((td) => [td.dataset.cell, td]),
      );
      if (cards.some((c) => c.cell === null || !cells.has(c.cell))) return false;
      for (const c of cards) {
        // a card is known by its key (PB-7), unique in its map; cards sort by the key's number
        cardOf(c.key)?.remove();
        const td = cells.get(c.cell);
        let list = td.querySelector('ul.cards');
        if (!list) {
          list = document.createElement('ul');
          list.className = 'cards';
          td.append(list);
        }
        const next = [...list.children].find((li) => numberOf(li) > c.number);
        list.insertBefore(fragmentOf(c.html), next ?? null);
      }
      for (const list of region.querySelectorAll('td ul.cards:empty')) list.remove();
      region.querySelector('#board-summary')?.replaceWith(fragmentOf(summary));
      say(`updated ${cards.length === 1 ? 'a story' : `${cards.length} stories`}`);
      return true;
    };
    const update = async () => {
      if (typing()) {
        timer = setTimeout(() => (running = running.then(update)), 500);
        return;
      }
      const ids = [...touched];
      const all = whole || !patchUrl || ids.length === 0;
      touched.clear();
      whole = false;
      if (all || !(await patch(ids).catch(() => false))) await refresh();
    };
    const source = new EventSource(`/events?project=${encodeURIComponent(project)}`);
    source.addEventListener('log', (message) => {
      const row = JSON.parse(message.data);
      if (row.aggregate_type === 'story') touched.add(row.aggregate_id);
      else whole = true;
      clearTimeout(timer);
      // one update at a time, in order: a later answer never loses to an earlier one
      timer = setTimeout(() => (running = running.then(update, update)), 20);
    });
  }

  // The time slider: moving it shows the page as of that position.
  for (const input of document.querySelectorAll('input[data-autosubmit]')) {
    const output = document.getElementById(`${input.id}-value`);
    input.addEventListener('input', () => {
      if (output) output.textContent = input.value;
    });
    input.addEventListener('change', () => input.form?.requestSubmit());
  }

  // audit verify with a progress bar: the server streams NDJSON progress lines.
  const audit = document.getElementById('audit-form');
  if (audit) {
    const bar = document.getElementById('audit-progress');
    const result = document.getElementById('audit-result');
    audit.addEventListener('submit', async (event) => {
      event.preventDefault();
      const button = audit.querySelector('button');
      button.disabled = true;
      result.textContent = 'Verifying…';
      const response = await fetch('/audit', { method: 'POST', headers: { 'x-csrf-token': csrf } });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
        const lines = buffered.split('\n');
        buffered = lines.pop();
        for (const line of lines.filter(Boolean)) {
          const msg = JSON.parse(line);
          if (msg.total) {
            bar.max = msg.total;
            bar.value = msg.done;
            bar.textContent = `${Math.round((100 * msg.done) / msg.total)}%`;
          }
          if (msg.summary) {
            bar.value = bar.max;
            result.textContent = (msg.report.ok ? 'OK: ' : 'FAILED: ') + msg.summary;
          }
          if (msg.error) result.textContent = `Error: ${msg.error}`;
        }
      }
      if (!response.ok) result.textContent = `Refused (${response.status})`;
      button.disabled = false;
    });
  }
})();
