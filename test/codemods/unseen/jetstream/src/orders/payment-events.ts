import { connect, type JetStreamClient } from 'nats';

let js: JetStreamClient;

export async function initPayments(): Promise<void> {
  js = (await connect()).jetstream();
}

export async function paymentCaptured(paymentId: string, amount: number): Promise<void> {
  await js.publish('payments.captured', JSON.stringify({ paymentId, amount }));
}
