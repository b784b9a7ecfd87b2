// The project's events feed (CONTRACT §16): the latest events, then each new one as it commits
// (ledgerEvents over the subscription socket), newest first; without a socket it re-reads.
import { apiKey, gql, rest } from './api.js';
import { el, failure, heading, loading, noProject, notice, time } from './dom.js';
import { liveEvents } from './live.js';
/** @import { Answer, BalanceCrossing, Ctx, Hold, LedgerEvent, Transaction, Wallet } from './types.js' */
/** @typedef {Pick<LedgerEvent, 'seq' | 'type' | 'data' | 'created_at'>} FeedEvent an event of the feed, read or live */

const SHOWN = 200;
const POLL_MS = 5000;

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  view.append(heading('Events'));
  if (!ctx.project) return void view.append(noProject());
  /** @type {FeedEvent[]} newest first */
  const events = [];
  let type = '';
  /** @type {string | null} */
  let shownTypes = null;
  let lastSeq = 0;
  let started = false;
  let connected = false;
  const liveNote = el('p', { id: 'events-live', role: 'status', class: 'muted' });
  const filter = el('select', { id: 'event-type', onchange: () => { type = filter.value; draw(); } });
  const list = el('div', {}, loading('events'));
  view.append(el('div', { class: 'toolbar' }, el('label', { for: 'event-type' }, 'Type'), filter, liveNote), list);

  /** @param {FeedEvent[]} batch */
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
      filter.replaceChildren(el('option', { value: '' }, 'all'), ...types.map((t) => el('option', { value: t, selected: t === type }, t)));
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
  const received = (/** @type {FeedEvent} */ event) => (chain = chain.then(() => (event.seq === lastSeq + 1 ? add([event]) : event.seq > lastSeq ? readPages() : undefined)));

  /** The latest events: from about SHOWN before the end (seq is gapless per project), forward to the end. */
  async function readPages() {
    try {
      if (!started) {
        started = true;
        /** @type {{ events: { totalCount: number } }} */
        const { events: count } = await gql(`query($projectId: ID!) { events(projectId: $projectId, first: 0) { totalCount } }`, { projectId: ctx.projectId });
        lastSeq = Math.max(0, count.totalCount - SHOWN);
      }
      for (let more = true; more; ) {
        /** @type {Answer<'listEvents'>} */
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
    onEvent: (e) => received({ type: e.type, seq: e.seq, data: e.data, created_at: e.createdAt }),
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

/**
 * One line of what the event says; its type tells which resource its data is (CONTRACT §16).
 * @param {FeedEvent} e
 */
function summary(e) {
  if (e.type === 'transaction.posted' || e.type === 'points.expired') {
    const d = /** @type {Transaction} */ (e.data);
    return `${d.amount} ${d.currency} ${d.from} → ${d.to}`;
  }
  if (e.type.startsWith('hold.')) {
    const d = /** @type {Hold} */ (e.data);
    return `${d.amount} ${d.currency} ${d.from} → ${d.to}, ${d.status}`;
  }
  if (e.type === 'wallet.status_changed') {
    const d = /** @type {Wallet} */ (e.data);
    return `${d.address} is ${d.status}`;
  }
  if (e.type === 'balance.threshold_crossed') {
    const d = /** @type {BalanceCrossing} */ (e.data);
    return `${d.address} ${d.field} ${d.previous} → ${d.current} crossed ${d.operator} ${d.value} ${d.currency}`;
  }
  return '';
}
