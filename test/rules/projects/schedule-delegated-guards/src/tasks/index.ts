export { default as purgeUploads } from './purge-uploads';
export { default as closeTickets } from './close-tickets';
