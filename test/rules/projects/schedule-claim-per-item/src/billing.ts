export const billing = {
  async updateSeatCount(customer: string, seats: number) {
    await fetch(`https://billing.example/customers/${customer}/seats`, { method: 'PUT', body: String(seats) });
  },
};
