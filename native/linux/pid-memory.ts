// What a walker remembers per process between walks, forgotten as processes go.
export class PidMemory<T> {
  protected byPid = new Map<number, T>();

  forget(pid: number): void {
    this.byPid.delete(pid);
  }

  /** Forgets every process not in `pids` (the whole system now). */
  retainOnly(pids: readonly number[]): void {
    const alive = new Set(pids);
    for (const pid of this.byPid.keys()) if (!alive.has(pid)) this.byPid.delete(pid);
  }

  get size(): number {
    return this.byPid.size;
  }
}
