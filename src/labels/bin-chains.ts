/**
 * One job chain per bin (docs/decisions.md#per-bin-label-queues): a bin's label jobs run one after
 * another, in the order given; bins run side by side, so a job stuck at the printer holds only its bin.
 */
export function binChains() {
  const chains = new Map<string, Promise<void>>();
  return {
    /** Runs `job` after the bin's earlier ones (no bin: a chain of its own); a bin's idle chain is dropped. */
    run<T>(binId: string | undefined, job: () => Promise<T>): Promise<T> {
      const key = binId ?? "";
      const done = (chains.get(key) ?? Promise.resolve()).then(job);
      const tail = done.then(
        () => {},
        () => {},
      );
      chains.set(key, tail);
      void tail.then(() => {
        if (chains.get(key) === tail) chains.delete(key);
      });
      return done;
    },
    /** Resolves once every bin's chain is done, jobs queued meanwhile included. */
    async idle(): Promise<void> {
      while (chains.size) await Promise.all([...chains.values()]);
    },
  };
}
