export async function fetchRemote(id: string): Promise<string> {
  return id;
}

export async function importRows(id: string): Promise<string> {
  return id;
}
