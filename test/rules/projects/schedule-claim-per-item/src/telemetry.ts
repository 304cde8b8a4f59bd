export function reportFailure(job: string, error: unknown) {
  console.error(job, error);
}
