// Written whole by npm run migration:generate (or migration:index) from the migrations of this folder: never by hand.
import { CreateClientAndSmsConfig1732240000000 } from './1732240000000-CreateClientAndSmsConfig';
import { SmsConfigLimitByTrigger1795400000000 } from './1795400000000-SmsConfigLimitByTrigger';
import { SmsConfigLimitWithoutTrigger1795600000000 } from './1795600000000-SmsConfigLimitWithoutTrigger';
import { ClientLifecycle1796000000000 } from './1796000000000-ClientLifecycle';
import { DomainEventOutbox1797000000000 } from './1797000000000-DomainEventOutbox';
import { TablesAsTypeormWritesThem1798000000000 } from './1798000000000-TablesAsTypeormWritesThem';
import { CredentialCustody1798000000001 } from './1798000000001-CredentialCustody';
import { KeyUsage1798000000002 } from './1798000000002-KeyUsage';
import { Dispatch1798000000003 } from './1798000000003-Dispatch';
import { ProviderHosts1798000000004 } from './1798000000004-ProviderHosts';
import { ExactAmounts1798000000005 } from './1798000000005-ExactAmounts';
import { AuditAndKeptSecrets1798000000006 } from './1798000000006-AuditAndKeptSecrets';
import { DestinationPrices1798000000007 } from './1798000000007-DestinationPrices';
import { AllowedDestinations1798000000008 } from './1798000000008-AllowedDestinations';
import { DailyLimits1798000000009 } from './1798000000009-DailyLimits';
import { ChangeSequence1798000000010 } from './1798000000010-ChangeSequence';
import { RequestTrace1798000000011 } from './1798000000011-RequestTrace';
import { RemoveNeverPublicHosts1798000000012 } from './1798000000012-RemoveNeverPublicHosts';
import { DeliverySignals1798000000013 } from './1798000000013-DeliverySignals';
import { RemoveAddedNeverPublicHosts1798000000014 } from './1798000000014-RemoveAddedNeverPublicHosts';
import { ScopedKeys1798000000015 } from './1798000000015-ScopedKeys';
import { ScopedKeyDigests1798000000016 } from './1798000000016-ScopedKeyDigests';

/** In timestamp order. Each may run again after failing at any statement, and none needs privileges beyond its own database. */
export const SQLITE_MIGRATIONS = [
  CreateClientAndSmsConfig1732240000000,
  SmsConfigLimitByTrigger1795400000000,
  SmsConfigLimitWithoutTrigger1795600000000,
  ClientLifecycle1796000000000,
  DomainEventOutbox1797000000000,
  TablesAsTypeormWritesThem1798000000000,
  CredentialCustody1798000000001,
  KeyUsage1798000000002,
  Dispatch1798000000003,
  ProviderHosts1798000000004,
  ExactAmounts1798000000005,
  AuditAndKeptSecrets1798000000006,
  DestinationPrices1798000000007,
  AllowedDestinations1798000000008,
  DailyLimits1798000000009,
  ChangeSequence1798000000010,
  RequestTrace1798000000011,
  RemoveNeverPublicHosts1798000000012,
  DeliverySignals1798000000013,
  RemoveAddedNeverPublicHosts1798000000014,
  ScopedKeys1798000000015,
  ScopedKeyDigests1798000000016,
];
