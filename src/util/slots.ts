// At most `limit` pieces of work at once; the rest wait their turn in order. The provider writes
// (per provider, updater/state.ts) and the live checks' sockets (updater/propagation.ts) use it.

export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((wake) => this.waiting.push(wake));
    else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
