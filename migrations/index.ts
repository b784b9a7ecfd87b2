import { Migration20261121000000_initial } from './Migration20261121000000_initial.js';

/** Explicit list, so compiled (dist) and TypeScript (jest) runs apply the same migrations. */
export const migrations = [{ name: 'Migration20261121000000_initial', class: Migration20261121000000_initial }];
