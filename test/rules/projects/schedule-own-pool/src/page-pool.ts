// This process's own pool of headless pages: a cleanup named for a delete that only drops
// entries of the pool and closes the pages it holds.
interface Slot {
  page: { close(): Promise<void> } | null;
  createdAt: number;
}

export class PagePool {
  private slots: Record<string, Slot> = {};
  private byOwner = new Map<string, string[]>();

  cleanupStaleSlots(): void {
    for (const [id, slot] of Object.entries(this.slots)) {
      if (Date.now() - slot.createdAt > 300_000) this.deleteSlot(id);
    }
  }

  deleteSlot(id: string): void {
    const slot = this.slots[id];
    slot?.page?.close().catch(() => undefined);
    this.byOwner.delete(id);
    delete this.slots[id];
  }
}
