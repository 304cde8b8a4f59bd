// How code reads this host's own network address, by name: a work that publishes or stores it
// announces this instance (a service-registry heartbeat). Read by analysis/scheduled-work/own-address.ts.

/**
 * A call that reads this host's own network address, asked with no argument: a name holding one
 * of OWN_ADDRESS_WORDS (`hostIpv4()`, `localIpv4()`, `ip.address()` by its receiver) or one of
 * OWN_ADDRESS_CALLS (`os.networkInterfaces()`). A payload built from it announces this instance.
 */
export const OWN_ADDRESS_WORDS: readonly string[] = ['ip', 'ipv4', 'ipv6', 'ipaddress'];
export const OWN_ADDRESS_CALLS: readonly string[] = ['networkInterfaces'];
