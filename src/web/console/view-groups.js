// Wallet groups (CONTRACT §29): one level of a project's tree at a time — the groups there with
// their roll-up balances (every wallet of their subtree) and their subgroups' — read in ONE
// GraphQL request (the planned nested read), with forms to create a group here and to move a
// wallet into a group (a wallet is in one group at most: it leaves the one it was in).
import { gql, rest } from './api.js';
import { button, el, failure, flashLine, heading, loading, noProject, notice } from './dom.js';
import { openForm } from './dialog.js';
/** @import { Ctx, GqlGroup, GqlGroupBalance } from './types.js' */

// 50 groups a level: with their subgroups and roll-ups, 100 would cost 12,203, past the GraphQL cost budget of 10,000
const LEVEL = `query ($projectId: ID!, $parentId: ID) {
  project(id: $projectId) { walletGroups(parentId: $parentId, first: 50) { totalCount edges { node {
    id name balances { currency balance held available wallets }
    groups { id name balances { currency balance held available wallets } } } } } }
}`;

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  if (!ctx.project) return void view.append(heading('Groups'), noProject());
  const projectId = ctx.projectId;
  const flash = flashLine();
  const trail = el('nav', { class: 'breadcrumbs', 'aria-label': 'Group path' });
  const list = el('div', {}, loading('groups'));
  /** @type {{ id: string, name: string }[]} the path from the roots to the level shown */
  const path = [];
  /** @type {GqlGroup[]} the groups of the level shown, and their subgroups */
  let shown = [];
  view.append(
    heading('Groups', button('New group…', () => newGroup(), { class: 'primary' }), button('Move a wallet…', () => moveWallet())),
    flash, trail, list,
  );

  async function load() {
    const parent = path.at(-1) ?? null;
    trail.replaceChildren(
      button('Roots', () => { path.length = 0; void load(); }, { disabled: parent === null }),
      ...path.map((g, i) => el('span', {}, ' › ', button(g.name, () => { path.length = i + 1; void load(); }, { disabled: i === path.length - 1 }))),
    );
    try {
      /** @type {{ project: { walletGroups: { totalCount: number, edges: { node: GqlGroup }[] } } }} */
      const data = await gql(LEVEL, { projectId: String(projectId), parentId: parent?.id ?? null });
      shown = data.project.walletGroups.edges.map((e) => e.node);
      list.replaceChildren(
        shown.length
          ? el('ul', { class: 'group-tree' }, shown.map((g) => groupItem(g)))
          : notice('empty', parent ? `${parent.name} has no subgroups` : 'No groups yet', 'A group sums the balances of its wallets and of its subgroups’ wallets, at every depth.'),
      );
    } catch (error) {
      list.replaceChildren(failure(error, 'Groups'));
    }
  }

  /** @param {GqlGroup} group */
  function groupItem(group) {
    const open = button(group.name, () => { path.push({ id: group.id, name: group.name }); void load(); }, { class: 'link', 'aria-label': `Open ${group.name}` });
    return el('li', { 'data-group': group.id },
      el('div', { class: 'group-head' }, open, rollUp(group.balances)),
      group.groups?.length
        ? el('ul', {}, group.groups.map((child) => el('li', { 'data-group': child.id }, el('span', {}, child.name), rollUp(child.balances))))
        : '');
  }

  /** @param {GqlGroupBalance[]} balances */
  function rollUp(balances) {
    if (!balances.length) return el('span', { class: 'muted' }, ' no balance');
    return el('span', { class: 'roll-up' },
      balances.map((b) => el('span', { class: 'badge', title: `held ${b.held ?? '—'}, available ${b.available ?? '—'}` }, ` ${b.balance} ${b.currency} · ${b.wallets} wallet${b.wallets === 1 ? '' : 's'} `)));
  }

  function newGroup() {
    const parent = path.at(-1) ?? null;
    openForm({
      id: 'group-create',
      title: parent ? `New group in ${parent.name}` : 'New root group',
      fields: [{ name: 'name', label: 'Name', required: true, hint: '1 to 100 characters' }],
      onSubmit: async (values) => {
        /** @type {{ group: { id: string } }} */
        const made = await rest('POST', '/wallet-groups', { body: { projectId, name: values.name, parentId: parent?.id ?? null } });
        flash.say(`Group created: ${made.group.id}`);
        await load();
      },
    });
  }

  function moveWallet() {
    const targets = shown.flatMap((g) => [g, ...(g.groups ?? [])]);
    if (!targets.length) return void flash.say('Create a group first: a wallet moves into a group shown here.');
    openForm({
      id: 'group-move-wallet',
      title: 'Move a wallet',
      intro: 'The wallet leaves the group it was in, with its balances.',
      fields: [
        { name: 'wallet', label: 'Wallet', required: true, hint: 'id or address' },
        { name: 'group', label: 'Into', type: 'select', required: true, options: targets.map((g) => [g.id, g.name]) },
      ],
      onSubmit: async (values) => {
        await rest('PUT', `/wallet-groups/${values.group}/wallets/${encodeURIComponent(String(values.wallet))}`, { body: { projectId } });
        flash.say(`Moved ${values.wallet}`);
        await load();
      },
    });
  }
  void load();
}
