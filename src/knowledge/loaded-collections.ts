// A collection of the instance filled with rows read from a shared store: a scheduler class loads
// its entries at start (`const rows = await prisma.schedule.findMany(); for (const row of rows)
// this.insert(new Entry(row))`) and walks them on a timer. Walking it is working on shared rows,
// not flushing what this process gathered. Plain data read by analysis/scheduled-work/loaded-collection.ts.

/** Methods that put an item into a list, a `Set` or a `Map` (`this.queue.splice(i, 0, entry)` too). */
export const COLLECTION_PUT_METHODS: readonly string[] = ['push', 'unshift', 'splice', 'add', 'set'];
