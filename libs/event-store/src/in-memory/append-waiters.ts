/**
 * Subscribers caught up with the log wait here for the next append. Appends and reads run on one
 * thread, so a subscriber that saw the end of the log and starts waiting cannot miss an append: no
 * generation counter and no poll are needed, unlike PostgreSQL's NOTIFY.
 */
export class AppendWaiters {
  private readonly waiting = new Set<() => void>();

  /** Resolves at the next append, at close, or when the signal aborts. */
  next(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        signal?.removeEventListener('abort', wake);
        this.waiting.delete(wake);
        resolve();
      };
      signal?.addEventListener('abort', wake, { once: true });
      this.waiting.add(wake);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.waiting]) wake();
  }
}
