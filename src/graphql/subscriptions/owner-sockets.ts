/**
 * Open subscription sockets per owner on this instance, with a ceiling (CONTRACT §18: 100). A
 * slot is taken and checked in one synchronous step, so concurrent connection_inits cannot both
 * take the last one.
 */
export class OwnerSockets {
  private readonly open = new Map<string, number>();
  private readonly watchers = new Set<() => void>();

  constructor(readonly max: number) {}

  /** Takes a slot for `owner`; false when the owner already holds `max`. */
  take(owner: string): boolean {
    const held = this.count(owner);
    if (held >= this.max) return false;
    this.open.set(owner, held + 1);
    this.changed();
    return true;
  }

  release(owner: string): void {
    const left = this.count(owner) - 1;
    if (left > 0) this.open.set(owner, left);
    else this.open.delete(owner);
    this.changed();
  }

  count(owner: string): number {
    return this.open.get(owner) ?? 0;
  }

  /** Resolves once `holds(count(owner))`: tests await a socket's release instead of sleeping. */
  whenCount(owner: string, holds: (count: number) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!holds(this.count(owner))) return;
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
      check();
    });
  }

  private changed(): void {
    for (const check of [...this.watchers]) check();
  }
}
