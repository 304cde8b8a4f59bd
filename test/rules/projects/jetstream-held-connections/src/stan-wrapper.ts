import nats, { type Stan } from 'node-nats-streaming';

class StanWrapper {
  private stan?: Stan;

  get client(): Stan {
    if (!this.stan) throw new Error('connect first');
    return this.stan;
  }

  connect(clusterId: string, clientId: string, url: string) {
    this.stan = nats.connect(clusterId, clientId, { url });
  }
}

export const stanWrapper = new StanWrapper();
