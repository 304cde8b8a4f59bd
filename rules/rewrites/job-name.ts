// The job part of a lease key (`<service>:<job>`), in kebab-case: `sweepRenewals` → `sweep-renewals`.
export function jobName(name: string): string | undefined {
  const kebab = name
    .replace(/^[#_$]+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return kebab === '' ? undefined : kebab;
}
