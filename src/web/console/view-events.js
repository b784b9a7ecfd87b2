// The project's events feed (CONTRACT §16): the latest events, then each new one as it commits
// (ledgerEvents over the subscription socket), newest first; without a socket it re-reads.
import { apiKey, gql, rest } from './console-api.js';
import { el, failure, heading, loading, noProject, notice, time } from './console-dom.js';
import { liveEvents } from './console-live.js';

const SHOWN = 200;
const POLL_MS = 5000;

export function mount(view, ctx) {
  view.append(heading('Events'));
  if (!ctx.project) return void view.append(noProject());
  const events = []; // newest first
  let type = '';
  let shownTypes = null;
  let lastSeq = 0;
  let started = false;
  let connected = false;
  const liveNote = el('p', { id: 'events-live', role: 'status', class: 'muted' });
  const filter = el('select', { id: 'event-type', onchange: (e) => { type = e.target.value; draw(); } });
  const list = el('div', {}, loading('events'));
  view.append(el('div', { class: 'toolbar' }, el('label', { for: 'event-type' }, 'Type'), filter, liveNote), list);

  function add(batch) {
    for (const event of batch) {
      if (event.seq <= lastSeq) continue; // the subscription and a page may both bring it
      lastSeq = event.seq;
      events.unshift(event);
    }
    events.length = Math.min(events.length, SHOWN);
    draw();
  }

  function draw() {
    const types = [...new Set(events.map((e) => e.type))].sort();
    // rebuilt only when a new type appears, so a live event does not close the open select
    if (types.join() !== shownTypes) {
      shownTypes = types.join();
      filter.replaceChildren(el('option', { value: '' }, 'all'), types.map((t) => el('option', { value: t, selected: t === type }, t)));
    }
    const shown = events.filter((e) => !type || e.type === type);
    if (!shown.length) return list.replaceChildren(notice('empty', 'No events yet', 'Every posting, hold and status change writes one; they appear here as they commit.'));
    list.replaceChildren(el('ol', { class: 'feed', 'aria-label': 'Events, newest first' }, shown.map((e) => el('li', { 'data-event': e.type, 'data-seq': String(e.seq) },
      el('div', { class: 'feed-head' }, el('span', { class: `badge event-${e.type.split('.')[0]}` }, e.type), el('span', { class: 'feed-summary' }, summary(e)), el('span', { class: 'muted' }, '#', String(e.seq), ' ', time(e.created_at))),
      el('details', {}, el('summary', {}, 'Data'), el('pre', { class: 'json' }, JSON.stringify(e.data, null, 2)))))));
  }

  // Reads and live events take turns (one chain), so a page and the subscription never interleave.
  let chain = Promise.resolve();
  const catchUp = () => (chain = chain.then(readPages));
  /** A live event next in seq is shown; one after a gap (committed while the socket was starting) reads the pages up to it. */
  const received = (event) => (chain = chain.then(() => (event.seq === lastSeq + 1 ? add([event]) : event.seq > lastSeq ? readPages() : undefined)));

  /** The latest events: from about SHOWN before the end (seq is gapless per project), forward to the end. */
  async function readPages() {
    try {
      if (!started) {
        started = true;
        const { events: count } = await gql(`query($projectId: ID!) { events(projectId: $projectId, first: 0) { totalCount } }`, { projectId: ctx.projectId });
        lastSeq = Math.max(0, count.totalCount - SHOWN);
      }
      for (let more = true; more; ) {
        const page = await rest('GET', '/events', { query: { projectId: ctx.projectId, after: lastSeq, limit: 100 } });
        add(page.events);
        more = page.pagination.hasMore;
      }
      draw();
    } catch (error) {
      list.replaceChildren(failure(error, 'Events'));
    }
  }

  const live = liveEvents({
    apiKey,
    projectId: ctx.projectId,
    onEvent: (e) => received({ ...e, created_at: e.createdAt }),
    onState: (on) => {
      connected = on;
      liveNote.textContent = on ? 'Live: new events appear as they commit.' : `Refreshing every ${POLL_MS / 1000} s.`;
      if (on) void catchUp(); // whatever committed before the subscription started
    },
  });
  const timer = setInterval(() => connected || document.hidden || void catchUp(), POLL_MS);
  void catchUp();
  return () => {
    clearInterval(timer);
    live.stop();
  };
}

function summary(e) {
  const d = e.data;
  if (e.type === 'transaction.posted' || e.type === 'points.expired') return `${d.amount} ${d.currency} ${d.from} → ${d.to}`;
  if (e.type.startsWith('hold.')) return `${d.amount} ${d.currency} ${d.from} → ${d.to}, ${d.status}`;
  if (e.type === 'wallet.status_changed') return `${d.address} is ${d.status}`;
  if (e.type === 'balance.threshold_crossed') return `${d.address} ${d.field} ${d.previous} → ${d.current} crossed ${d.operator} ${d.value} ${d.currency}`;
  return '';
}
