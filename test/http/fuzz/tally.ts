/** Requests sent per class, the statuses they got, and how long each class took: the fuzz run's measure. */
export class Tally {
  private readonly statuses = new Map<string, Map<number, number>>();
  private readonly durations = new Map<string, number>();

  count(kind: string, status: number): void {
    const counts = this.statuses.get(kind) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    this.statuses.set(kind, counts);
  }

  async time<T>(kind: string, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.durations.set(kind, (this.durations.get(kind) ?? 0) + performance.now() - start);
    }
  }

  total(): number {
    return [...this.statuses.values()].reduce((sum, counts) => sum + [...counts.values()].reduce((a, b) => a + b, 0), 0);
  }

  report(): string {
    const lines = [...this.statuses].map(([kind, counts]) => {
      const n = [...counts.values()].reduce((a, b) => a + b, 0);
      const byClass = new Map<string, number>();
      for (const [status, c] of counts) byClass.set(`${Math.floor(status / 100)}xx`, (byClass.get(`${Math.floor(status / 100)}xx`) ?? 0) + c);
      const statuses = [...counts].sort((a, b) => a[0] - b[0]).map(([status, c]) => `${status}×${c}`).join(' ');
      return `  ${kind}: ${n} requests in ${((this.durations.get(kind) ?? 0) / 1000).toFixed(1)} s; ${[...byClass].map(([k, c]) => `${k} ${c}`).join(', ')} (${statuses})`;
    });
    const seconds = [...this.durations.values()].reduce((a, b) => a + b, 0) / 1000;
    return [`fuzz: ${this.total()} requests in ${seconds.toFixed(1)} s`, ...lines].join('\n');
  }
}
