// Drafts held in memory, but each one an entity saved to the database: the save is a write.
interface Draft {
  save(): Promise<void>;
  stale: boolean;
}

export class DraftQueue {
  private pending: Draft[] = [];

  cleanupStaleDrafts(): void {
    for (const draft of this.pending) {
      draft.stale = true;
      void draft.save();
    }
  }
}
