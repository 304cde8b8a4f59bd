import { PagePool } from './page-pool';
import { DraftQueue } from './draft-queue';
import { SessionStore } from './session-store';
import { db } from './db';

const pages = new PagePool();
const drafts = new DraftQueue();
const sessions = new SessionStore(db);

setInterval(() => pages.cleanupStaleSlots(), 60_000);
setInterval(() => drafts.cleanupStaleDrafts(), 60_000);
setInterval(() => sessions.cleanupExpiredSessions(), 60_000);
