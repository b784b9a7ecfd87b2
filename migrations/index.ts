import { Migration20261121000000_initial } from './Migration20261121000000_initial.js';
import { Migration20261121010000_post_locks_new_asset } from './Migration20261121010000_post_locks_new_asset.js';
import { Migration20261121020000_posting_request_key } from './Migration20261121020000_posting_request_key.js';
import { Migration20261121030000_balance_transaction_counts } from './Migration20261121030000_balance_transaction_counts.js';
import { Migration20261121040000_idempotent_answers_keep_key_order } from './Migration20261121040000_idempotent_answers_keep_key_order.js';
import { Migration20261121050000_owner_wallet_counts } from './Migration20261121050000_owner_wallet_counts.js';
import { Migration20261123000000_routines } from './Migration20261123000000_routines.js';
import { Migration20261123121000_api_key_management } from './Migration20261123121000_api_key_management.js';
import { Migration20261123121100_webhook_event_transaction } from './Migration20261123121100_webhook_event_transaction.js';
import { Migration20261123122000_holds_reversals_references } from './Migration20261123122000_holds_reversals_references.js';
import { Migration20261123123000_as_of } from './Migration20261123123000_as_of.js';
import { Migration20261123125000_point_lots } from './Migration20261123125000_point_lots.js';
import { Migration20261124126000_events } from './Migration20261124126000_events.js';
import { Migration20261124127000_webhook_endpoints } from './Migration20261124127000_webhook_endpoints.js';
import { Migration20261125120000_release_stuck_hold_lots } from './Migration20261125120000_release_stuck_hold_lots.js';
import { Migration20261126104500_webhook_fair_claims } from './Migration20261126104500_webhook_fair_claims.js';
import { Migration20261126120000_webhook_calls_commit_order } from './Migration20261126120000_webhook_calls_commit_order.js';
import { Migration20261126150000_transaction_search } from './Migration20261126150000_transaction_search.js';
import { Migration20261126170000_limits } from './Migration20261126170000_limits.js';

import { Migration20261126172000_journal } from './Migration20261126172000_journal.js';

import { Migration20261126173000_analytics } from './Migration20261126173000_analytics.js';

import { Migration20261126171000_balance_monitors } from './Migration20261126171000_balance_monitors.js';
import { Migration20261207120000_webhook_lanes } from './Migration20261207120000_webhook_lanes.js';
import { Migration20261208100000_pending_credits } from './Migration20261208100000_pending_credits.js';
import { Migration20261208110000_credit_lines } from './Migration20261208110000_credit_lines.js';
import { Migration20261208120000_wallet_groups } from './Migration20261208120000_wallet_groups.js';

/** Explicit list, so compiled (dist) and TypeScript (jest) runs apply the same migrations. */
export const migrations = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000_initial },
  { name: 'Migration20261121010000_post_locks_new_asset', class: Migration20261121010000_post_locks_new_asset },
  { name: 'Migration20261121020000_posting_request_key', class: Migration20261121020000_posting_request_key },
  { name: 'Migration20261121030000_balance_transaction_counts', class: Migration20261121030000_balance_transaction_counts },
  { name: 'Migration20261121040000_idempotent_answers_keep_key_order', class: Migration20261121040000_idempotent_answers_keep_key_order },
  { name: 'Migration20261121050000_owner_wallet_counts', class: Migration20261121050000_owner_wallet_counts },
  { name: 'Migration20261123000000_routines', class: Migration20261123000000_routines },
  { name: 'Migration20261123121000_api_key_management', class: Migration20261123121000_api_key_management },
  { name: 'Migration20261123121100_webhook_event_transaction', class: Migration20261123121100_webhook_event_transaction },
  { name: 'Migration20261123122000_holds_reversals_references', class: Migration20261123122000_holds_reversals_references },
  { name: 'Migration20261123123000_as_of', class: Migration20261123123000_as_of },
  { name: 'Migration20261123125000_point_lots', class: Migration20261123125000_point_lots },
  { name: 'Migration20261124126000_events', class: Migration20261124126000_events },
  { name: 'Migration20261124127000_webhook_endpoints', class: Migration20261124127000_webhook_endpoints },
  { name: 'Migration20261125120000_release_stuck_hold_lots', class: Migration20261125120000_release_stuck_hold_lots },
  { name: 'Migration20261126104500_webhook_fair_claims', class: Migration20261126104500_webhook_fair_claims },
  { name: 'Migration20261126120000_webhook_calls_commit_order', class: Migration20261126120000_webhook_calls_commit_order },
  { name: 'Migration20261126150000_transaction_search', class: Migration20261126150000_transaction_search },
  { name: 'Migration20261126170000_limits', class: Migration20261126170000_limits },

  { name: 'Migration20261126172000_journal', class: Migration20261126172000_journal },

  { name: 'Migration20261126173000_analytics', class: Migration20261126173000_analytics },

  { name: 'Migration20261126171000_balance_monitors', class: Migration20261126171000_balance_monitors },
  { name: 'Migration20261207120000_webhook_lanes', class: Migration20261207120000_webhook_lanes },
  { name: 'Migration20261208100000_pending_credits', class: Migration20261208100000_pending_credits },
  { name: 'Migration20261208110000_credit_lines', class: Migration20261208110000_credit_lines },
  { name: 'Migration20261208120000_wallet_groups', class: Migration20261208120000_wallet_groups },
];
