const lastSeen = new Map<string, { at: number; close(): void }>();

export function track(id: string, socket: { close(): void }): void {
  lastSeen.set(id, { at: Date.now(), close: () => socket.close() });
}

/** Closes this process's own sockets that went quiet. */
export function closeStale(): void {
  const cutoff = Date.now() - 60_000;
  for (const [id, entry] of lastSeen) {
    if (entry.at >= cutoff) continue;
    entry.close();
    lastSeen.delete(id);
  }
}
