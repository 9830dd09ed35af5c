// The tabs of one origin share one key store, so they share its sessions: one refresh of a session
// at a time across tabs (Web Locks) and word of every change, such as a sign-out, to the others
// (BroadcastChannel). Both are looked up at first use, never at import, and used where Web Locks
// exist (every current browser); elsewhere (Node, whose BroadcastChannel joins worker threads, not
// tabs; React Native) only the in-process de-duplication of the client remains.

type LockManagerLike = {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
};

type ChannelLike = {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((event: unknown) => void) | null;
};

export type CrossTab = {
  /**
   * Runs `task` holding the origin-wide lock `key` where Web Locks exist (`waited` is then true:
   * another tab may have done the work meanwhile), else at once (`waited` false).
   */
  lock<T>(key: string, task: (waited: boolean) => Promise<T>): Promise<T>;
  /** Starts listening to the other tabs (idempotent). */
  listen(): void;
  /** Tells the other tabs that the held sessions changed. */
  announce(): void;
  /** Stops listening. */
  close(): void;
};

/**
 * Cross-tab coordination under `name`; `onChange` runs when another tab announces a change.
 *
 * @example
 * ```ts
 * const tabs = createCrossTab("signet.sessions", () => void sessions.sync());
 * ```
 */
export function createCrossTab(name: string, onChange: () => void): CrossTab {
  let channel: ChannelLike | null | undefined;
  const locks = () => (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  const open = () => {
    if (channel !== undefined) return channel;
    const Channel = (globalThis as { BroadcastChannel?: new (name: string) => ChannelLike })
      .BroadcastChannel;
    channel = Channel && locks() ? new Channel(name) : null;
    if (channel) channel.onmessage = onChange;
    return channel;
  };
  return {
    lock(key, task) {
      const manager = locks();
      return manager ? manager.request(`${name}|${key}`, () => task(true)) : task(false);
    },
    listen: () => void open(),
    announce: () => open()?.postMessage("changed"),
    close() {
      channel?.close();
      channel = null;
    },
  };
}
