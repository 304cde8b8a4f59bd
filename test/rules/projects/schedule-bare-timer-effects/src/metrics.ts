import { Gauge } from 'prom-client';

export const ratesAge = new Gauge({ name: 'exchange_rates_age_seconds', help: 'Age of the cached exchange rates' });
