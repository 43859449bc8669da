import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsOptionalQueryInteger, PageQueryDto } from '../../common/pagination/page';
import { MAX_ID } from '../../common/validation/positive-id.pipe';
import { AUDIT_ACTIONS, AuditAction, AuditDetails } from '../audit-entry';
import { AuditEvent } from '../audit-event.entity';
import { AnswerOf } from '../../common/answer';

export class AuditEventDto {
  @ApiProperty({ format: 'uuid' })
  eventId: string;

  @ApiProperty({ example: '2026-11-24T10:15:30.123Z', description: 'ISO-8601 UTC, with milliseconds' })
  occurredAt: string;

  @ApiProperty({ enum: AUDIT_ACTIONS })
  action: AuditAction;

  @ApiProperty({
    example: 'admin:3f9a1c5e',
    description:
      '`admin:<8 hex>` or `dispatcher:<8 hex>` (the start of the SHA-256 of the key, never the key), `client:<clientId>` ' +
      '(its root key) or `client:<clientId>/key:<keyId>` (one of its scoped keys)',
  })
  actor: string;

  @ApiProperty({ type: Number, nullable: true, description: 'null for exchange.declared' })
  clientId: number | null;

  @ApiProperty({ type: Number, nullable: true })
  smsConfigId: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The service's own id for the request that made the change: the x-request-id header of its answer, and its log line's requestId",
  })
  requestId: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The caller's own x-request-id, when it sent a sane one that does not look like a key; else null. Never taken for requestId",
  })
  callerRequestId: string | null;

  @ApiProperty({ type: [String], description: 'The names of the fields changed, never their values' })
  changed: string[];

  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'array', items: { type: 'string' } }] },
    nullable: true,
    example: null,
    description:
      'What the action says beyond the names in changed: `{"host": "<host>"}` for provider-host.approved and provider-host.removed; ' +
      '`{"range": "<range>"}` (such as +44740012xxxx) for client.pumping-suspected, client.pumping-blocked and client.pumping-lifted; ' +
      '`{"keyId": <keyId>, "name": "<name>", "scopes": [...]}` for client.key-created and client.key-deleted; ' +
      'null for the others, for `system` and for entries made before the service kept it',
  })
  details: AuditDetails | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '203.0.113.7',
    description:
      "The caller's address (after TRUST_PROXY, without a port a proxy appended; an IPv4-mapped address as IPv4), the full address, " +
      'not the /64 the limits count. ' +
      'null for `system` and for entries made before the service kept it. Not in the published events',
  })
  sourceAddress: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'curl/8.5.0',
    description:
      "The caller's User-Agent, cut to 200 characters, each that does not print replaced by ?; null when none was sent, when it " +
      'holds a run of 40 or more of A-Z, a-z, 0-9, _ and - (what a key looks like), for `system` and for entries made before the ' +
      'service kept it. Not in the published events',
  })
  userAgent: string | null;
}

/** What a published event leaves out of its audit entry: where the change came from is for the admins who read the audit. */
export const UNPUBLISHED_FIELDS = ['sourceAddress', 'userAgent'] as const satisfies ReadonlyArray<keyof AuditEventDto>;

export type DomainEventDto = Omit<AuditEventDto, (typeof UNPUBLISHED_FIELDS)[number]>;

export class AuditEventPageDto {
  @ApiProperty({ type: [AuditEventDto], description: 'Newest first' })
  items: AuditEventDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next page; null on the last page' })
  nextCursor: string | null;
}

export class AuditEventPageResponseDto extends AnswerOf(AuditEventPageDto) {}

export class AuditEventQueryDto extends PageQueryDto {
  @IsOptionalQueryInteger(1, MAX_ID, 'clientId must be a positive integer')
  clientId?: number;

  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  action?: AuditAction;
}

export function toAuditEvent(event: AuditEvent): AuditEventDto {
  return { ...toDomainEvent(event), sourceAddress: event.sourceAddress, userAgent: event.userAgent };
}

export function toDomainEvent(event: AuditEvent): DomainEventDto {
  return {
    eventId: event.eventId,
    occurredAt: event.occurredAt.toISOString(),
    action: event.action as AuditAction,
    actor: event.actor,
    clientId: event.clientId,
    smsConfigId: event.smsConfigId,
    requestId: event.requestId,
    callerRequestId: event.callerRequestId,
    changed: JSON.parse(event.changed) as string[],
    details: event.details === null ? null : (JSON.parse(event.details) as AuditDetails),
  };
}
