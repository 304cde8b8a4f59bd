export const db = {
  draft: { deleteMany: async (_args: unknown) => ({ count: 0 }) },
  digest: { create: async (_args: unknown) => ({}) },
};
