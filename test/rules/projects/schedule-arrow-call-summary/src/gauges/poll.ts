const readings = new Map<string, number>();

/** Reads this host's load into this process's memory. */
export async function pollGauges(): Promise<void> {
  const response = await fetch('http://127.0.0.1:9100/load');
  readings.set('load', Number(await response.text()));
}
