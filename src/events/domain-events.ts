import { AUDIT_ACTIONS, isPublished } from '../audit/audit-entry';

/** The durable topic exchange every instance declares at start-up and publishes the domain events on. */
export const EVENTS_EXCHANGE = 'client-registry.events';

/** The routing keys of the events: every audited action that changes something (not credential resolutions). */
export const PUBLISHED_ACTIONS = AUDIT_ACTIONS.filter(isPublished);

/** The body of every event is its audit entry (AuditEventDto) as JSON. */
export const EVENT_CONTENT_TYPE = 'application/json';
