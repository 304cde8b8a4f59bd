export function reportFailure(label: string, error: unknown): void {
  console.error(label, error);
}
