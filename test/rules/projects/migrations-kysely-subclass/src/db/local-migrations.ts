export const migrations = {};
