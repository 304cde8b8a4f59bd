export * from './retention.service';
export { SessionStore } from '../sessions/session-store';
export { LoginAudit } from '../sessions/login-audit';
