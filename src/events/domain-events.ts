import { AUDIT_ACTIONS, isPublished } from '../audit/audit-entry';

export const EVENTS_EXCHANGE = 'client-registry.events';

export const PUBLISHED_ACTIONS = AUDIT_ACTIONS.filter(isPublished);

export const EVENT_CONTENT_TYPE = 'application/json';
