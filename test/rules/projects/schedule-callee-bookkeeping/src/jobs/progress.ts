export function progressOf(id: string) {
  const pending: string[] = [];
  return {
    note(message: string) {
      pending.push(`${id}: ${message}`);
    },
    async flush() {
      pending.length = 0;
    },
  };
}
