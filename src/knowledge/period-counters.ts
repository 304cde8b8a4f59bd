// Counters a period gates: a streak counts consecutive days (weeks…) and is changed at most once per
// period, the row stamped with the time of the change and the next change decided on that stamp.
// Two requests that both see the period's first event compute the same next value from the same
// row, so whichever write lands last writes what was meant: no update is lost.

/** A field that counts consecutive periods (`streakLength`, `currentStreak`, `max_streak`). */
export const PERIOD_COUNTER_FIELD = /streak/i;

/** A name that holds the current time (`now`, `viewTime`, `updatedAt`, `today`). */
export const TIME_NAME = /^(?:now|today|.*(?:Time|Date|At|_at|_time|_date))$/i;

/** Calls and constructors that give the current time (`new Date()`, `Date.now()`, `moment()`, `dayjs()`). */
export const CURRENT_TIME_CALLEES: ReadonlySet<string> = new Set(['Date', 'moment', 'dayjs', 'DateTime']);
