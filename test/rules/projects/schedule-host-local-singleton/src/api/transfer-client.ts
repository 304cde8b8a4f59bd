import axios from 'axios';

export interface TransferServer {
  id: number;
  url: string;
}

export interface Transfer {
  id: string;
  left: number;
}

// Reads the transfer queue of one download server.
export async function listTransfers(server: TransferServer): Promise<Transfer[]> {
  const response = await axios.get<Transfer[]>(`${server.url}/api/transfers`, { params: { page: 1 } });
  return response.data;
}

// Asks the server to retry its stalled transfers: a write on the other side.
export async function submitCommand(server: TransferServer, name: string): Promise<void> {
  await axios.post(`${server.url}/api/command`, { name });
}
